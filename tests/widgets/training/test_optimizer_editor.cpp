// The training panel's optimiser settings: the keys of the project's type and no other, a
// switch to Hessian-free (its keys, the schedule made constant), edits that are one undoable
// step each, a value the key refuses put back; the run's own settings (length, batch, BPTT,
// schedule, ..., a time budget in seconds, ending a problem's run once solved) in the same
// way; and the monitor's line
// for a Hessian-free step.
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest>
#include <fstream>
#include <limits>

#include "engine/config/project_file.h"
#include "engine/store/metric_names.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/hessian_free_step_view.h"
#include "widgets/training/optimizer_editor.h"
#include "widgets/training/run_settings_editor.h"
#include "widgets/wheel_guard.h"

using mrnn::engine::OptimizerKind;
using mrnn::widgets::HessianFreeStepView;
using mrnn::widgets::OptimizerEditor;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunSettingsEditor;
using mrnn::widgets::test::TrainingTestProject;

class OptimizerEditorTest : public QObject {
  Q_OBJECT

 private slots:
  void showsTheKeysOfTheProjectsType();
  void switchingToHessianFreeShowsItsKeysAndDropsTheSchedule();
  void editsAreUndoableAndRefusedValuesGoBack();
  void aHessianFreeStepIsSummedUpUnderTheFigures();
  void theRunsLengthAndShapeAreAFormInStepWithTheYaml();
  void aProblemsRunCanEndOnceSolved();
  void aTimeBudgetIsShownAndTakenInSeconds();
  void theWheelScrollsTheFormRatherThanChangingAField();
};

namespace {

void setText(QLineEdit* line, const QString& text) {
  line->setFocus();
  line->selectAll();
  line->setText(text);
  emit line->editingFinished();
}

}  // namespace

void OptimizerEditorTest::showsTheKeysOfTheProjectsType() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  OptimizerEditor editor(document);
  editor.show();
  QCOMPARE(static_cast<OptimizerKind>(editor.typeBox()->currentData().toInt()),
           OptimizerKind::Adam);
  for (const char* key : {"lr", "beta1", "beta2", "epsilon", "weight_decay"}) {
    QVERIFY2(editor.isShown(key) && editor.field(key)->isVisible(), key);
  }
  for (const char* key : {"momentum", "lambda", "cg_max_iterations", "line_search"}) {
    QVERIFY2(!editor.isShown(key) && !editor.field(key)->isVisible(), key);
  }
  QCOMPARE(qobject_cast<QLineEdit*>(editor.field("lr"))->text(), QStringLiteral("0.01"));
}

void OptimizerEditorTest::switchingToHessianFreeShowsItsKeysAndDropsTheSchedule() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  mrnn::engine::Project scheduled = document.project();
  scheduled.training.schedule.kind = mrnn::engine::ScheduleKind::Linear;
  scheduled.training.schedule.floor = 0.001;
  document.edit(scheduled, QStringLiteral("schedule"));
  OptimizerEditor editor(document);
  editor.show();
  editor.typeBox()->setCurrentIndex(
      editor.typeBox()->findData(static_cast<int>(OptimizerKind::HessianFree)));
  const auto& training = document.project().training;
  QCOMPARE(training.optimizer.kind, OptimizerKind::HessianFree);
  QCOMPARE(training.schedule.kind, mrnn::engine::ScheduleKind::Constant);
  for (const char* key :
       {"lambda", "min_lambda", "structural_damping", "cg_max_iterations", "cg_min_iterations",
        "gradient_windows", "curvature_windows", "curvature_sequences", "preconditioner",
        "preconditioner_power", "warm_start_decay", "backtracking", "line_search"}) {
    QVERIFY2(editor.field(key)->isVisible(), key);
  }
  QVERIFY(!editor.field("lr")->isVisible());
  // The paper's settings, as defaults.
  QCOMPARE(qobject_cast<QLineEdit*>(editor.field("lambda"))->text(), QStringLiteral("10"));
  QCOMPARE(qobject_cast<QSpinBox*>(editor.field("cg_max_iterations"))->value(), 150);
  // The project still reads back: no learning rate, no schedule written for it.
  const std::string yaml = mrnn::engine::projectToYaml(document.project());
  QVERIFY(mrnn::engine::parseProject(yaml).training == document.project().training);
}

void OptimizerEditorTest::editsAreUndoableAndRefusedValuesGoBack() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  OptimizerEditor editor(document);
  editor.show();
  editor.typeBox()->setCurrentIndex(
      editor.typeBox()->findData(static_cast<int>(OptimizerKind::HessianFree)));
  auto* lambda = qobject_cast<QLineEdit*>(editor.field("lambda"));
  setText(lambda, QStringLiteral("3.5"));
  QCOMPARE(document.project().training.optimizer.hessianFree.initialLambda, 3.5);
  qobject_cast<QSpinBox*>(editor.field("gradient_windows"))->setValue(4);
  QCOMPARE(document.project().training.optimizer.hessianFree.gradientWindows, int64_t{4});
  qobject_cast<QCheckBox*>(editor.field("line_search"))->setChecked(false);
  QVERIFY(!document.project().training.optimizer.hessianFree.lineSearch);
  document.undoStack()->undo();
  QVERIFY(document.project().training.optimizer.hessianFree.lineSearch);
  QVERIFY(qobject_cast<QCheckBox*>(editor.field("line_search"))->isChecked());
  document.undoStack()->undo();
  document.undoStack()->undo();
  QCOMPARE(document.project().training.optimizer.hessianFree.initialLambda, 10.0);
  QCOMPARE(lambda->text(), QStringLiteral("10"));
  // Text the field cannot read leaves the project as it was and shows its value again.
  lambda->setText(QStringLiteral("lots"));
  emit lambda->editingFinished();
  QCOMPARE(document.project().training.optimizer.hessianFree.initialLambda, 10.0);
  QCOMPARE(lambda->text(), QStringLiteral("10"));
}

void OptimizerEditorTest::aHessianFreeStepIsSummedUpUnderTheFigures() {
  HessianFreeStepView view;  // it shows itself when it has a step to tell
  mrnn::engine::StepEvent adam;
  adam.step = 1;
  view.addStep(adam);
  QVERIFY(view.isHidden());  // a first-order step: nothing to say
  namespace m = mrnn::engine::metric;
  mrnn::engine::StepEvent step;
  step.step = 7;
  step.update = {{m::kCgIterations, 87},
                 {m::kBacktrackedIterate, 75},
                 {m::kLambda, 6.667},
                 {m::kRho, 0.81},
                 {m::kStepSize, 1}};
  view.addStep(step);
  QVERIFY(!view.isHidden());
  QCOMPARE(view.text(), QStringLiteral("Hessian-free  step 7: CG 87 iterations, kept 75 · λ 6.67 · "
                                       "ρ 0.81 · step size 1"));
  step.update[3].value = -std::numeric_limits<double>::infinity();
  view.addStep(step);
  QVERIFY2(view.text().contains(QStringLiteral("ρ −∞")), qPrintable(view.text()));
  view.clear();
  QVERIFY(view.isHidden());
}

void OptimizerEditorTest::theRunsLengthAndShapeAreAFormInStepWithTheYaml() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  RunSettingsEditor editor(document);
  editor.show();
  const auto& training = [&document]() -> const mrnn::engine::TrainingConfig& {
    return document.project().training;
  };
  const int64_t steps = training().maxSteps;
  QVERIFY(steps > 0);
  QCOMPARE(editor.lengthUnitBox()->currentIndex(), 0);
  QCOMPARE(editor.lengthBox()->value(), static_cast<int>(steps));

  // Train longer: one undoable edit of max_steps, written in the YAML.
  editor.lengthBox()->setValue(5000);
  QCOMPARE(training().maxSteps, int64_t{5000});
  QVERIFY(mrnn::engine::projectToYaml(document.project()).find("max_steps: 5000") !=
          std::string::npos);
  document.undoStack()->undo();
  QCOMPARE(training().maxSteps, steps);
  QCOMPARE(editor.lengthBox()->value(), static_cast<int>(steps));

  // In epochs: max_steps goes, the epochs count; back in steps, the last step count returns.
  editor.lengthUnitBox()->setCurrentIndex(1);
  QCOMPARE(training().maxSteps, int64_t{0});
  editor.lengthBox()->setValue(3);
  QCOMPARE(training().epochs, int64_t{3});
  editor.lengthUnitBox()->setCurrentIndex(0);
  QCOMPARE(training().maxSteps, steps);

  // The other fields write their keys.
  qobject_cast<QSpinBox*>(editor.field("batch_size"))->setValue(7);
  QCOMPARE(training().batchSize, int64_t{7});
  qobject_cast<QSpinBox*>(editor.field("bptt"))->setValue(33);
  QCOMPARE(training().bptt, int64_t{33});
  qobject_cast<QSpinBox*>(editor.field("validate_every"))->setValue(40);
  QCOMPARE(training().validateEvery, int64_t{40});
  auto* schedule = qobject_cast<QComboBox*>(editor.field("schedule"));
  schedule->setCurrentIndex(
      schedule->findData(static_cast<int>(mrnn::engine::ScheduleKind::Linear)));
  QCOMPARE(training().schedule.kind, mrnn::engine::ScheduleKind::Linear);

  // A change made in the YAML shows in the form.
  mrnn::engine::Project edited = document.project();
  edited.training.batchSize = 12;
  document.edit(edited, QStringLiteral("Typed in the YAML"));
  QCOMPARE(qobject_cast<QSpinBox*>(editor.field("batch_size"))->value(), 12);
}

// "End the run once the problem is solved" is a long-range problem's alone: hidden for a
// corpus, and for a problem written into the project's own text (its comments kept).
void OptimizerEditorTest::aProblemsRunCanEndOnceSolved() {
  TrainingTestProject corpus;
  ProjectDocument text;
  QCOMPARE(corpus.loadInto(text), QString());
  RunSettingsEditor textEditor(text);
  textEditor.show();
  QVERIFY(textEditor.field("stop_when_solved")->isHidden());

  QTemporaryDir folder;
  const QString path = folder.filePath(QStringLiteral("project.yaml"));
  {
    std::ofstream out(path.toStdString());
    out << "name: problem  # the 2-bit one\nmodel:\n  input: {level: word, embedding_size: 0}\n"
           "  layers:\n    - {type: rnn, hidden_size: 8}\n"
           "data:\n  synthetic: temporal_order_2bit  # X and Y among noise\n"
           "training:\n  max_steps: 20\n";
  }
  ProjectDocument document;
  document.load(path);
  RunSettingsEditor editor(document);
  editor.show();
  auto* box = qobject_cast<QCheckBox*>(editor.field("stop_when_solved"));
  QVERIFY(box && !box->isHidden());
  QVERIFY(!box->isChecked());
  box->setChecked(true);
  QVERIFY(document.project().training.stopWhenSolved);
  const std::string edited = document.text();
  QVERIFY2(edited.find("stop_when_solved: true") != std::string::npos, edited.c_str());
  QVERIFY2(edited.find("# X and Y among noise") != std::string::npos, edited.c_str());
  document.undoStack()->undo();
  QVERIFY(!document.project().training.stopWhenSolved);
  QVERIFY(!box->isChecked());

  // Too few validation sequences to show it solved: the box is off and says why, rather than
  // making a project the parser refuses.
  {
    std::ofstream out(path.toStdString());
    out << "name: few\nmodel:\n  input: {level: word, embedding_size: 0}\n"
           "  layers:\n    - {type: rnn, hidden_size: 8}\n"
           "data:\n  synthetic: temporal_order_2bit\n  problem: {valid: 100}\n";
  }
  ProjectDocument few;
  few.load(path);
  RunSettingsEditor fewEditor(few);
  fewEditor.show();
  auto* fewBox = qobject_cast<QCheckBox*>(fewEditor.field("stop_when_solved"));
  QVERIFY(fewBox && !fewBox->isHidden());
  QVERIFY(!fewBox->isEnabled());
  QVERIFY2(fewBox->toolTip().contains(QStringLiteral("at least 299 validation sequences")),
           qPrintable(fewBox->toolTip()));
}

// training.max_seconds is seconds: the field once counted whole minutes, so a budget of 4 s
// showed "none" and a typed one was rounded to minutes.
void OptimizerEditorTest::aTimeBudgetIsShownAndTakenInSeconds() {
  QTemporaryDir folder;
  const QString path = folder.filePath(QStringLiteral("project.yaml"));
  {
    std::ofstream out(path.toStdString());
    out << "name: budget\nmodel:\n  input: {level: word, embedding_size: 0}\n"
           "  layers:\n    - {type: rnn, hidden_size: 8}\n"
           "data:\n  synthetic: temporal_order_2bit\n"
           "training:\n  max_steps: 20\n  max_seconds: 4  # a quick look\n";
  }
  ProjectDocument document;
  document.load(path);
  RunSettingsEditor editor(document);
  editor.show();
  auto* budget = qobject_cast<QAbstractSpinBox*>(editor.field("max_seconds"));
  QVERIFY(budget);
  QCOMPARE(budget->text(), QStringLiteral("4 s"));
  const auto seconds = [&document] { return document.project().training.maxSeconds; };

  // Typed as a researcher says it, taken to the second, written as seconds in the YAML.
  const auto type = [budget](const QString& text) {
    budget->setFocus();
    budget->selectAll();
    QTest::keyClicks(budget, text);
    QTest::keyClick(budget, Qt::Key_Return);
  };
  type(QStringLiteral("1 h 30 min"));
  QCOMPARE(seconds(), 5400.0);
  QCOMPARE(budget->text(), QStringLiteral("1 h 30 min"));
  QVERIFY2(document.text().find("max_seconds: 5400 # a quick look") != std::string::npos,
           document.text().c_str());
  type(QStringLiteral("90"));
  QCOMPARE(seconds(), 90.0);
  QCOMPARE(budget->text(), QStringLiteral("1 min 30 s"));
  type(QStringLiteral("0:45"));
  QCOMPARE(seconds(), 45.0);

  // The arrows step to round figures: 5 s below a minute, a minute below an hour.
  budget->stepUp();
  QCOMPARE(seconds(), 50.0);
  for (int i = 0; i < 2; ++i) budget->stepUp();
  QCOMPARE(seconds(), 60.0);
  budget->stepUp();
  QCOMPARE(seconds(), 120.0);
  budget->stepDown();
  budget->stepDown();
  QCOMPARE(seconds(), 55.0);

  // None at all: the special text. The changes in a row are one undoable edit, as typing in
  // any field is.
  type(QStringLiteral("none"));
  QCOMPARE(seconds(), 0.0);
  QCOMPARE(budget->text(), QStringLiteral("none"));
  document.undoStack()->undo();
  QCOMPARE(seconds(), 4.0);
  QCOMPARE(budget->text(), QStringLiteral("4 s"));

  // A fraction of a second (a test's budget) is not "none" either.
  mrnn::engine::Project edited = document.project();
  edited.training.maxSeconds = 0.5;
  document.edit(edited, QStringLiteral("Typed in the YAML"));
  QCOMPARE(budget->text(), QStringLiteral("0.5 s"));
}

// Scrolling the settings with the mouse wheel once turned "Linear decay" into "On a validation
// plateau" unnoticed: a field takes the wheel only when it has the focus; otherwise the form
// scrolls.
void OptimizerEditorTest::theWheelScrollsTheFormRatherThanChangingAField() {
  mrnn::widgets::WheelGuard::installOnApplication();
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  QScrollArea area;
  auto* forms = new QWidget;
  auto* layout = new QVBoxLayout(forms);
  auto* settings = new RunSettingsEditor(document);
  layout->addWidget(settings);
  layout->addWidget(new OptimizerEditor(document));
  area.setWidget(forms);
  area.setWidgetResizable(true);
  area.resize(360, 140);  // far shorter than the forms: the area scrolls
  area.show();
  QVERIFY(QTest::qWaitForWindowExposed(&area));
  auto* schedule = qobject_cast<QComboBox*>(settings->field("schedule"));
  auto* batch = qobject_cast<QSpinBox*>(settings->field("batch_size"));
  QVERIFY(schedule && batch);
  QCOMPARE(schedule->focusPolicy(), Qt::StrongFocus);  // the wheel never gives it the focus
  QCOMPARE(batch->focusPolicy(), Qt::StrongFocus);
  const auto scheduleBefore = document.project().training.schedule.kind;
  const int64_t batchBefore = document.project().training.batchSize;
  const int scrolledBefore = area.verticalScrollBar()->value();
  const auto wheel = [](QWidget* target) {
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
  };
  wheel(schedule);
  wheel(batch->findChild<QLineEdit*>());  // what lies under the mouse in a spin box
  QCOMPARE(document.project().training.schedule.kind, scheduleBefore);
  QCOMPARE(document.project().training.batchSize, batchBefore);
  QCOMPARE(batch->value(), static_cast<int>(batchBefore));
  QVERIFY2(area.verticalScrollBar()->value() > scrolledBefore, "the form did not scroll");

  // Focused (clicked or tabbed into), the field takes the wheel as ever.
  area.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&area));
  batch->setFocus(Qt::TabFocusReason);
  QVERIFY(batch->hasFocus());
  wheel(batch);  // (a test's wheel event goes to no parent: the spin box itself here)
  QCOMPARE(batch->value(), static_cast<int>(batchBefore) - 1);
}

QTEST_MAIN(OptimizerEditorTest)
#include "test_optimizer_editor.moc"
