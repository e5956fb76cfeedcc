#include <qcustomplot.h>
#include <QAbstractItemDelegate>
#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <memory>
#include <set>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/io/atomic_file.h"
#include "experiment_test_project.h"
#include "experiment_test_store.h"
#include "widgets/experiments/axes_editor.h"
#include "widgets/experiments/experiment_file.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/experiments/fixed_settings_editor.h"
#include "widgets/experiments/metric_axis_plot.h"
#include "widgets/experiments/parallel_coordinates_view.h"
#include "widgets/experiments/results_table_model.h"
#include "widgets/experiments/results_view.h"
#include "widgets/experiments/trials_table.h"
#include "widgets/export/export_bar.h"
#include "widgets/project/project_document.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

std::string readText(const QString& path) {
  return engine::readWholeFile(path.toStdString());
}

// The parameter counts of the plan's trials, in trial order.
std::vector<int64_t> parameterCounts(const engine::ExperimentPlan& plan) {
  std::vector<int64_t> counts;
  for (const auto& trial : plan.trials) counts.push_back(trial.parameters);
  return counts;
}

}  // namespace

class ExperimentsPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void opensTheProjectsExperimentAndPlansIt();
  void editingAnAxisReplansAndWritesTheFile();
  void switchingAKindConvertsTheValues();
  void fixedSettingsAreEditedInThePanel();
  void theKeyCompleterReadsWhole();
  void aBadValueIsShownAndLaunchWaits();
  void newExperimentWritesAStarterFile();
  void anotherProjectListsItsOwnExperiments();
  void resultsTableSortsAndShowsRunsInTheMonitor();
  void claimsAreTestedBesideTheTable();
  void aCellSizedPerSettingIsOneSeries();
  void metricPlotHasAPointWithErrorBarsPerConfiguration();
  void parallelCoordinatesHasALinePerConfiguration();
  void resultsExportAsCsv();
  void launchWithoutMrnnSaysSo();
};

void ExperimentsPanelTest::opensTheProjectsExperimentAndPlansIt() {
  test::ExperimentTestProject project;
  QVERIFY(project.ok());
  const std::string original = readText(project.experimentFile());
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  panel.setProgram(QStringLiteral("/bin/true"));
  QCOMPARE(panel.experimentChooser()->count(), 1);
  QCOMPARE(panel.experimentChooser()->currentText(), QStringLiteral("grid"));
  QCOMPARE(panel.experimentFile(), project.experimentFile());
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QVERIFY(panel.problemLabel()->text().isEmpty());
  QCOMPARE(panel.plan()->trials.size(), size_t{4});
  // The editor shows the file's axes as written.
  const std::vector<AxisRow> axes = panel.axesEditor()->axes();
  QCOMPARE(axes.size(), size_t{2});
  QCOMPARE(axes[0].key, QStringLiteral("model.layers[0].type"));
  QCOMPARE(axes[0].kind, engine::AxisKind::Cells);
  QCOMPARE(axes[0].values, QStringLiteral("lstm, mlstm"));
  QCOMPARE(axes[0].matchParameters, QStringLiteral("3000"));
  QCOMPARE(axes[1].values, QStringLiteral("0.001, 0.003"));
  // One row per trial with its parameter count; nothing queued yet.
  TrialsTable* trials = panel.trialsTable();
  QCOMPARE(trials->rowCount(), 4);
  for (int row = 0; row < 4; ++row) {
    const auto& trial = panel.plan()->trials[static_cast<size_t>(row)];
    QCOMPARE(trials->item(row, TrialsTable::ParametersColumn)->text(),
             QLocale(QLocale::English).toString(static_cast<qlonglong>(trial.parameters)));
    QCOMPARE(trials->item(row, TrialsTable::StatusColumn)->text(), QStringLiteral("not queued"));
  }
  QVERIFY(panel.launchButton()->isEnabled());
  QVERIFY(!panel.pauseButton()->isEnabled());
  QVERIFY(!panel.stopButton()->isEnabled());
  QVERIFY(panel.queueLabel()->text().startsWith(QStringLiteral("Not started")));
  QVERIFY(panel.planLabel()->text().contains(QStringLiteral("4 trials")));

  // Saving the project (the experiments' base) plans again; the file is written only when
  // the experiment is edited, so a hand-written file stays as it was.
  engine::Project changed = document.project();
  changed.training.maxSteps = 60;
  document.edit(changed, QStringLiteral("Set max steps"));
  document.save();
  QVERIFY(panel.plan().has_value());
  QCOMPARE(panel.plan()->trials[0].project.training.maxSteps, int64_t{60});
  QCOMPARE(panel.trialsTable()->item(0, TrialsTable::StepColumn)->text(), QStringLiteral("0/60"));
  QCOMPARE(readText(project.experimentFile()), original);
}

void ExperimentsPanelTest::editingAnAxisReplansAndWritesTheFile() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  const std::vector<int64_t> before = parameterCounts(*panel.plan());
  AxesEditor* editor = panel.axesEditor();

  // A third learning rate: six trials, written to the file.
  editor->setCell(1, AxesEditor::ValuesColumn, QStringLiteral("0.001, 0.003, 0.01"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QCOMPARE(panel.plan()->trials.size(), size_t{6});
  QCOMPARE(panel.trialsTable()->rowCount(), 6);

  // A larger matched size: every trial's parameter count changes, to about the target.
  editor->setCell(0, AxesEditor::MatchColumn, QStringLiteral("6000"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  const std::vector<int64_t> after = parameterCounts(*panel.plan());
  QCOMPARE(after.size(), size_t{6});
  for (size_t i = 0; i < after.size(); ++i) {
    QVERIFY2(std::abs(after[i] - 6000) < 300, qPrintable(QString::number(after[i])));
    QVERIFY(after[i] != before[std::min(i, before.size() - 1)]);
    QCOMPARE(panel.trialsTable()->item(static_cast<int>(i), TrialsTable::ParametersColumn)->text(),
             QLocale(QLocale::English).toString(static_cast<qlonglong>(after[i])));
  }
  QVERIFY(panel.planLabel()->text().contains(QStringLiteral("6 trials")));

  // The file reads back as what the panel planned, and keeps what the editor does not show.
  const std::string text = readText(project.experimentFile());
  const engine::Experiment read =
      engine::parseExperiment(text, project.experimentFile().toStdString());
  const engine::Experiment& planned = panel.plan()->experiment;
  QCOMPARE(read.axes.size(), planned.axes.size());
  for (size_t i = 0; i < read.axes.size(); ++i) {
    QCOMPARE(read.axes[i].key, planned.axes[i].key);
    QCOMPARE(read.axes[i].kind, planned.axes[i].kind);
    QCOMPARE(read.axes[i].values, planned.axes[i].values);
    QCOMPARE(read.axes[i].matchParameters, planned.axes[i].matchParameters);
  }
  QCOMPARE(read.axes[1].values, (std::vector<std::string>{"0.001", "0.003", "0.01"}));
  QCOMPARE(read.axes[0].matchParameters, int64_t{6000});
  QCOMPARE(read.description, std::string("a 2x2 grid"));
  QCOMPARE(read.references.size(), size_t{1});
  QCOMPARE(read.references[0].source, std::string("made up, Table 0"));
  QVERIFY(text.rfind("# The panel keeps this comment.\n", 0) == 0);
  const engine::ExperimentPlan replanned = engine::planExperiment(read);
  QCOMPARE(parameterCounts(replanned), after);

  // Seeds: each configuration twice.
  editor->seedsEdit()->setText(QStringLiteral("1, 2"));
  emit editor->seedsEdit()->textEdited(editor->seedsEdit()->text());
  QTRY_COMPARE(panel.plan() ? panel.plan()->trials.size() : size_t{0}, size_t{12});
  QCOMPARE(engine::loadExperiment(project.experimentFile().toStdString()).seeds,
           (std::vector<uint64_t>{1, 2}));
}

void ExperimentsPanelTest::switchingAKindConvertsTheValues() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  AxesEditor* editor = panel.axesEditor();
  editor->setKind(1, engine::AxisKind::LogRange);
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  const engine::Experiment read = engine::loadExperiment(project.experimentFile().toStdString());
  QCOMPARE(read.axes[1].kind, engine::AxisKind::LogRange);
  QCOMPARE(read.axes[1].from, 0.001);
  QCOMPARE(read.axes[1].to, 0.003);
  QCOMPARE(read.axes[1].count, int64_t{2});
  editor->setCell(1, AxesEditor::CountColumn, QStringLiteral("3"));
  QCOMPARE(panel.plan()->trials.size(), size_t{6});
  // And back: the range's points become the list.
  editor->setKind(1, engine::AxisKind::Values);
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  const engine::Experiment back = engine::loadExperiment(project.experimentFile().toStdString());
  QCOMPARE(back.axes[1].kind, engine::AxisKind::Values);
  QCOMPARE(back.axes[1].values.size(), size_t{3});
  // Six significant digits, as the engine writes range points.
  QVERIFY(std::abs(std::stod(back.axes[1].values[1]) - std::sqrt(0.001 * 0.003)) < 1e-8);
}

// The `set:` block: a shorter run for every trial without touching the project.
void ExperimentsPanelTest::fixedSettingsAreEditedInThePanel() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  const std::string projectBefore = readText(project.projectFile());
  ExperimentsPanel panel(document);
  FixedSettingsEditor* fixed = panel.fixedSettingsEditor();
  QCOMPARE(fixed->table()->rowCount(), 0);
  fixed->addSetting();
  QCOMPARE(fixed->table()->rowCount(), 1);
  QVERIFY(readText(project.experimentFile()).find("set:") == std::string::npos);  // no key yet
  fixed->setCell(0, FixedSettingsEditor::ValueColumn, QStringLiteral("12"));
  fixed->setCell(0, FixedSettingsEditor::KeyColumn, QStringLiteral("training.max_steps"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  for (const auto& trial : panel.plan()->trials)
    QCOMPARE(trial.project.training.maxSteps, int64_t{12});
  engine::Experiment read = engine::loadExperiment(project.experimentFile().toStdString());
  QCOMPARE(read.set.size(), size_t{1});
  QCOMPARE(read.set[0].first, std::string("training.max_steps"));
  QCOMPARE(read.set[0].second, std::string("12"));
  // The file keeps its comment and the project is untouched.
  QVERIFY(readText(project.experimentFile()).rfind("# The panel keeps this comment.\n", 0) == 0);
  QCOMPARE(readText(project.projectFile()), projectBefore);

  // A second setting with a list value, then a value the project refuses: marked, not written.
  fixed->addSetting();
  fixed->setCell(1, FixedSettingsEditor::KeyColumn, QStringLiteral("training.bptt"));
  fixed->setCell(1, FixedSettingsEditor::ValueColumn, QStringLiteral("10"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QCOMPARE(panel.plan()->trials.front().project.training.bptt, int64_t{10});
  fixed->setCell(1, FixedSettingsEditor::ValueColumn, QStringLiteral("-3"));
  QVERIFY(!panel.plan().has_value());
  QVERIFY2(panel.problemLabel()->text().contains(QStringLiteral("bptt")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY(fixed->isMarked(1));
  QVERIFY(!fixed->isMarked(0));
  QCOMPARE(engine::loadExperiment(project.experimentFile().toStdString()).set.size(), size_t{2});
  // Not YAML at all: named as the fixed setting.
  fixed->setCell(1, FixedSettingsEditor::ValueColumn, QStringLiteral("[1, 2"));
  QVERIFY2(panel.problemLabel()->text().contains(QStringLiteral("Fixed setting training.bptt")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY(fixed->isMarked(1));
  // Removing it fixes the plan; the panel reads the block back when the file is opened again.
  fixed->table()->setCurrentCell(1, 0);
  fixed->removeButton()->click();
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QVERIFY(!fixed->isMarked(0));
  ExperimentsPanel again(document);
  QCOMPARE(
      again.fixedSettingsEditor()->rows(),
      (std::vector<FixedSetting>{{QStringLiteral("training.max_steps"), QStringLiteral("12")}}));
  // Removing the last one removes the block.
  fixed->table()->setCurrentCell(0, 0);
  fixed->removeButton()->click();
  QVERIFY(readText(project.experimentFile()).find("set:") == std::string::npos);
  QVERIFY(engine::loadExperiment(project.experimentFile().toStdString()).set.empty());
}

void ExperimentsPanelTest::aBadValueIsShownAndLaunchWaits() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  panel.setProgram(QStringLiteral("/bin/true"));
  QVERIFY(panel.launchButton()->isEnabled());
  std::string valid = readText(project.experimentFile());
  AxesEditor* editor = panel.axesEditor();

  // A learning rate the project refuses: the trial's own message, at the axis. Nothing below
  // it moves as it comes and goes (typed seeds once went into the Key cell instead).
  panel.resize(1280, 720);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const int seedsAt = editor->seedsEdit()->mapTo(&panel, QPoint(0, 0)).y();
  editor->setCell(1, AxesEditor::ValuesColumn, QStringLiteral("0.001, -5"));
  QVERIFY(!panel.plan().has_value());
  QVERIFY(!panel.problemLabel()->text().isEmpty());
  QCoreApplication::processEvents();
  QCOMPARE(editor->seedsEdit()->mapTo(&panel, QPoint(0, 0)).y(), seedsAt);
  QVERIFY2(panel.problemLabel()->text().startsWith(QStringLiteral("Axis 2 (lr)")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY2(panel.problemLabel()->text().contains(QStringLiteral("lr")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY(!panel.launchButton()->isEnabled());
  QCOMPARE(panel.trialsTable()->rowCount(), 0);
  QCOMPARE(editor->table()->item(1, AxesEditor::KeyColumn)->background().color(),
           QColor(255, 214, 214));
  // The file keeps its last valid version; the window knows it holds an edit the file does
  // not, so that closing asks before it is lost.
  QCOMPARE(readText(project.experimentFile()), valid);
  QVERIFY2(panel.unappliedEdits().contains(QStringLiteral("Axis 2 (lr)")),
           qPrintable(panel.unappliedEdits()));

  // Not a list at all, and a cell type that does not exist: located by the engine's key.
  editor->setCell(1, AxesEditor::ValuesColumn, QStringLiteral("[0.001"));
  QVERIFY(!panel.plan().has_value());
  QVERIFY2(panel.problemLabel()->text().startsWith(QStringLiteral("Axis 2 (lr), values")),
           qPrintable(panel.problemLabel()->text()));
  editor->setCell(1, AxesEditor::ValuesColumn, QStringLiteral("0.001, 0.003"));
  QVERIFY(panel.plan().has_value());
  QCOMPARE(panel.unappliedEdits(), QString());
  valid = readText(project.experimentFile());  // written again: valid once more
  editor->setCell(0, AxesEditor::ValuesColumn, QStringLiteral("lstm, gru2"));
  QVERIFY(!panel.plan().has_value());
  QVERIFY2(panel.problemLabel()->text().startsWith(QStringLiteral("Axis 1 (type), cell types")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY(panel.problemLabel()->text().contains(QStringLiteral("not a cell type")));
  QCOMPARE(editor->table()->item(0, AxesEditor::ValuesColumn)->background().color(),
           QColor(255, 214, 214));
  QCOMPARE(readText(project.experimentFile()), valid);

  // Fixed: planned again, the marks gone, Launch back.
  editor->setCell(0, AxesEditor::ValuesColumn, QStringLiteral("lstm, gru"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QVERIFY(panel.problemLabel()->text().isEmpty());
  QCoreApplication::processEvents();
  QCOMPARE(editor->seedsEdit()->mapTo(&panel, QPoint(0, 0)).y(), seedsAt);
  QVERIFY(panel.launchButton()->isEnabled());
  QVERIFY(editor->table()->item(0, AxesEditor::ValuesColumn)->background().color() !=
          QColor(255, 214, 214));
  QCOMPARE(engine::loadExperiment(project.experimentFile().toStdString()).axes[0].values,
           (std::vector<std::string>{"lstm", "gru"}));

  // A file broken on disk (by hand) is reported with its line.
  test::ExperimentTestProject::writeFile(project.experimentFile(),
                                         "experiment:\n  axes:\n    - key: training.optimizer.lr\n"
                                         "      values: [0.001]\n      count: 3\n");
  QVERIFY(!panel.openExperiment(project.experimentFile()) || !panel.plan().has_value());
  QVERIFY(!panel.plan().has_value());
  QVERIFY2(panel.problemLabel()->text().contains(QStringLiteral("line ")),
           qPrintable(panel.problemLabel()->text()));
  QVERIFY(!panel.launchButton()->isEnabled());
}

void ExperimentsPanelTest::newExperimentWritesAStarterFile() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(!panel.createExperiment(QStringLiteral("bad name!")).isEmpty());
  QVERIFY(!panel.createExperiment(QStringLiteral("grid")).isEmpty());  // exists
  QCOMPARE(panel.createExperiment(QStringLiteral("lr-sweep")), QString());
  const QString path = project.folder() + QStringLiteral("/experiments/lr-sweep.yaml");
  QCOMPARE(panel.experimentFile(), path);
  QCOMPARE(panel.experimentChooser()->count(), 2);
  QCOMPARE(panel.experimentChooser()->currentText(), QStringLiteral("lr-sweep"));
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QCOMPARE(panel.plan()->experiment.name, std::string("lr-sweep"));
  QCOMPARE(panel.plan()->experiment.axes.size(), size_t{1});
  QCOMPARE(panel.plan()->trials.size(), size_t{2});
  // Back to the grid by the chooser.
  panel.experimentChooser()->setCurrentIndex(panel.experimentChooser()->findText("grid"));
  emit panel.experimentChooser()->activated(panel.experimentChooser()->currentIndex());
  QCOMPARE(panel.experimentFile(), project.experimentFile());
  QCOMPARE(panel.plan()->trials.size(), size_t{4});
}

void ExperimentsPanelTest::anotherProjectListsItsOwnExperiments() {
  test::ExperimentTestProject first;
  test::ExperimentTestProject second;
  ProjectDocument document;
  document.load(first.projectFile());
  ExperimentsPanel panel(document);
  QCOMPARE(panel.experimentFile(), first.experimentFile());
  QCOMPARE(panel.createExperiment(QStringLiteral("only-here")), QString());
  document.load(second.projectFile());
  QCOMPARE(panel.experimentChooser()->count(), 1);
  QCOMPARE(panel.experimentFile(), second.experimentFile());
  QCOMPARE(panel.plan()->folder(), second.folder().toStdString());
  // A project without experiments says how to start one.
  QFile::remove(second.experimentFile());
  panel.refreshStatus();
  QCOMPARE(panel.experimentChooser()->count(), 0);
  QVERIFY(!panel.plan().has_value());
  QVERIFY(!panel.launchButton()->isEnabled());
  QVERIFY2(panel.queueLabel()->text().startsWith(QStringLiteral("No experiment yet")),
           qPrintable(panel.queueLabel()->text()));
}

void ExperimentsPanelTest::resultsTableSortsAndShowsRunsInTheMonitor() {
  test::ExperimentTestProject project(40, "[1, 2]");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  QCOMPARE(panel.plan()->trials.size(), size_t{8});
  test::fillStore(*panel.plan());
  panel.refreshStatus();

  ResultsView* results = panel.resultsView();
  ResultsTableModel* model = results->model();
  QCOMPARE(model->rowCount(), 4);
  for (int row = 0; row < 4; ++row) {
    const double mean = 2.0 + 0.1 * row + 0.075;
    const QModelIndex valid = model->index(row, model->validColumn());
    QVERIFY(std::abs(valid.data(ResultsTableModel::MeanRole).toDouble() - mean) < 1e-12);
    QCOMPARE(valid.data().toString(),
             QStringLiteral("%1 ± %2").arg(mean, 0, 'f', 4).arg(0.05 / std::sqrt(2.0), 0, 'f', 4));
    QCOMPARE(model->index(row, model->seedsColumn()).data().toString(), QStringLiteral("2/2"));
    QCOMPARE(model->index(row, model->stateColumn()).data().toString(), QStringLiteral("done"));
  }
  // Seeds as a group: n, mean, std, min and max in the cell's tooltip, each seed's figure; two
  // configurations selected compare by Welch's t-test over their seeds.
  const QString seeds = model->index(0, model->validColumn()).data(Qt::ToolTipRole).toString();
  QVERIFY2(seeds.contains(QStringLiteral("n = 2, mean 2.0750, std 0.0354, min 2.0500, max 2.1000")),
           qPrintable(seeds));
  QVERIFY(results->comparison().startsWith(QStringLiteral("Select two configurations")));
  results->selectConfigurations({0, 1});
  QVERIFY2(results->comparison().contains(
               QStringLiteral("#1 against #2: difference -0.1000, Welch's t = -2.83 on 2.0 "
                              "degrees of freedom, p = 0.1056")),
           qPrintable(results->comparison()));
  results->selectConfigurations({});
  // The reference stands beside the mlstm rows only.
  QCOMPARE(model->index(0, model->referenceColumn()).data().toString(), QStringLiteral("-"));
  QCOMPARE(model->index(2, model->referenceColumn()).data().toString(),
           QStringLiteral("valid bpc 3.5 (made up, Table 0)"));
  // Every trial reads done in the trials table.
  for (int row = 0; row < panel.trialsTable()->rowCount(); ++row) {
    QCOMPARE(panel.trialsTable()->item(row, TrialsTable::StatusColumn)->text(),
             QStringLiteral("done"));
  }
  QVERIFY(panel.queueLabel()->text().startsWith(QStringLiteral("Finished: 8 of 8")));

  // Sorted by validation, worst first.
  results->table()->sortByColumn(model->validColumn(), Qt::DescendingOrder);
  QCOMPARE(results->proxy()->index(0, 0).data().toInt(), 4);
  QCOMPARE(results->proxy()->index(3, 0).data().toInt(), 1);

  // Show in monitor: the selected configuration's runs (both seeds).
  QSignalSpy shown(&panel, &ExperimentsPanel::showRunsRequested);
  results->table()->selectRow(0);
  QVERIFY(results->showButton()->isEnabled());
  QTest::mouseClick(results->showButton(), Qt::LeftButton);
  QCOMPARE(shown.count(), 1);
  const auto ids = shown.first().first().value<QList<qint64>>();
  QCOMPARE(ids.size(), 2);
  const QVariantList expected =
      results->proxy()->index(0, 0).data(ResultsTableModel::RunIdsRole).toList();
  QCOMPARE(ids[0], expected[0].toLongLong());
  QCOMPARE(ids[1], expected[1].toLongLong());
  // A refresh keeps the selection.
  panel.refreshStatus();
  QCOMPARE(results->selectedRunIds(), ids);
}

void ExperimentsPanelTest::theKeyCompleterReadsWhole() {
  test::ExperimentTestProject project(40, "[1]");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QTableWidget* table = panel.axesEditor()->table();
  QVERIFY(table->rowCount() > 0);
  std::unique_ptr<QWidget> editor(table->itemDelegate()->createEditor(
      table->viewport(), QStyleOptionViewItem(), table->model()->index(0, 0)));
  auto* line = qobject_cast<QLineEdit*>(editor.get());
  QVERIFY(line != nullptr && line->completer() != nullptr);
  const int longest =
      line->fontMetrics().horizontalAdvance(QStringLiteral("model.init.recurrent_scale"));
  QVERIFY2(line->completer()->popup()->minimumWidth() > longest,
           qPrintable(QString::number(line->completer()->popup()->minimumWidth())));
}

// The file's claims, each side one configuration, tested on the seeds under the table: the
// lstm at lr 0.001 (test 2.25, 2.30) below the mlstm at 0.001 (2.45, 2.50) holds, t = -5.66 on
// 2 degrees of freedom, one-sided p = 0.015; the other claim is the wrong way round.
void ExperimentsPanelTest::claimsAreTestedBesideTheTable() {
  test::ExperimentTestProject project(40, "[1, 2]");
  QFile file(project.experimentFile());
  QVERIFY(file.open(QIODevice::Append));
  // Block style: a key path's "[0]" would open a list inside a {...} mapping.
  const auto claim = [](const char* better, const char* worse, const char* lr, const char* table) {
    return QStringLiteral(
               "    - better:\n"
               "        model.layers[0].type: %1\n"
               "        training.optimizer.lr: %3\n"
               "      worse:\n"
               "        model.layers[0].type: %2\n"
               "        training.optimizer.lr: %3\n"
               "      metric: test_bpc\n"
               "      source: \"made up, %4\"\n")
        .arg(QLatin1String(better), QLatin1String(worse), QLatin1String(lr), QLatin1String(table))
        .toUtf8();
  };
  file.write("  claims:\n" + claim("lstm", "mlstm", "0.001", "Table 1") +
             claim("mlstm", "lstm", "0.003", "Table 2"));
  file.close();
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  ResultsView* results = panel.resultsView();
  QVERIFY2(results->claims().contains(QStringLiteral("not measured yet")),
           qPrintable(results->claims()));
  test::fillStore(*panel.plan());
  panel.refreshStatus();
  const QStringList lines = results->claims().split(QStringLiteral("<br>"));
  QCOMPARE(lines.size(), 3);
  QVERIFY2(lines[1].contains(QStringLiteral("holds: 2.2750 against 2.4750, p = 0.015")),
           qPrintable(lines[1]));
  QVERIFY2(lines[2].contains(QStringLiteral("reversed: 2.5750 against 2.3750")),
           qPrintable(lines[2]));
  QVERIFY(results->findChild<QLabel*>(QStringLiteral("experimentClaims"))
              ->toolTip()
              .contains(QStringLiteral("made up, Table 2")));
}

// Mogrifier rounds with the cell matched to one parameter count: each rounds setting has its
// own width, but drawn against the rounds the configurations are one cell, one series (they
// were a series per width, "type=mogrifier (H 19)", each a single point).
void ExperimentsPanelTest::aCellSizedPerSettingIsOneSeries() {
  test::ExperimentTestProject project(40, "[1, 2]");
  test::ExperimentTestProject::writeFile(project.experimentFile(),
                                         "experiment:\n"
                                         "  set:\n"
                                         "    model.layers[0].rank: 4\n"
                                         "  axes:\n"
                                         "    - key: model.layers[0].rounds\n"
                                         "      values: [0, 2, 5]\n"
                                         "    - key: model.layers[0].type\n"
                                         "      cells: [mogrifier]\n"
                                         "      match_parameters: 3000\n"
                                         "  seeds: [1, 2]\n");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  std::set<int64_t> widths;
  for (const auto& trial : panel.plan()->trials)
    widths.insert(trial.project.model.layers[0].hiddenSize);
  QVERIFY(widths.size() > 1);  // the rounds' parameters come out of the width
  test::fillStore(*panel.plan());
  panel.refreshStatus();
  ResultsView* results = panel.resultsView();
  results->setAxis(0);
  MetricAxisPlot* plot = results->plot();
  QVERIFY(!plot->isCategorical());
  QCOMPARE(plot->series().size(), size_t{1});
  QCOMPARE(plot->series()[0]->dataCount(), 3);
  QCOMPARE(plot->series()[0]->name(), QStringLiteral("type=mogrifier"));
}

void ExperimentsPanelTest::metricPlotHasAPointWithErrorBarsPerConfiguration() {
  test::ExperimentTestProject project(40, "[1, 2]");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  test::fillStore(*panel.plan());
  panel.refreshStatus();
  ResultsView* results = panel.resultsView();
  MetricAxisPlot* plot = results->plot();

  // Against the cell type (the chooser starts there): labelled categories, one series per
  // learning rate, one point per configuration, error bars of the seeds' spread.
  QCOMPARE(results->axis(), 0);
  QVERIFY(plot->isCategorical());
  QCOMPARE(plot->pointCount(), 4);
  QCOMPARE(plot->series().size(), size_t{2});
  auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot->xAxis->ticker().data());
  QVERIFY(ticker != nullptr);
  QCOMPARE(ticker->ticks().value(0), QStringLiteral("lstm"));
  QCOMPARE(ticker->ticks().value(1), QStringLiteral("mlstm"));
  const double spread = 0.05 / std::sqrt(2.0);
  for (size_t s = 0; s < plot->series().size(); ++s) {
    QCOMPARE(plot->series()[s]->dataCount(), 2);
    // Categories stand alone (lstm and mlstm have no order to read a trend in), each seed's
    // figure beside its mean; they were joined by a dashed line once.
    QCOMPARE(plot->series()[s]->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(plot->seedPoints()[s]->dataCount(), 4);  // two configurations of two seeds
    QCOMPARE(plot->seedPoints()[s]->lineStyle(), QCPGraph::lsNone);
    QCPErrorBars* bars = plot->errorBars()[s];
    QCOMPARE(bars->dataCount(), 2);
    for (int i = 0; i < 2; ++i) {
      QVERIFY(std::abs(bars->data()->at(i).errorPlus - spread) < 1e-12);
    }
  }
  // The reference of the mlstm configurations is drawn beside them.
  QVERIFY(plot->referenceGraph() != nullptr);
  QCOMPARE(plot->referenceGraph()->dataCount(), 2);

  // Against the learning rate: numbers to scale, one series per cell type.
  results->setAxis(1);
  QVERIFY(!plot->isCategorical());
  QCOMPARE(plot->pointCount(), 4);
  QCOMPARE(plot->series().size(), size_t{2});
  QCOMPARE(plot->series()[0]->lineStyle(), QCPGraph::lsLine);
  QCOMPARE(plot->series()[0]->pen().style(), Qt::SolidLine);
  QCOMPARE(plot->seedPoints().size(), size_t{2});
  QCOMPARE(plot->series()[0]->data()->at(0)->key, 0.001);
  QCOMPARE(plot->series()[0]->data()->at(1)->key, 0.003);
  QVERIFY(std::abs(plot->series()[0]->data()->at(1)->value - (2.0 + 0.1 + 0.075)) < 1e-12);

  // A narrow pane (the panel at 960 px) breaks the caption into lines rather than cutting it
  // at both ends; a wide one keeps one line.
  panel.tabs()->setCurrentIndex(1);
  panel.resize(1800, 900);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QTRY_VERIFY2(!plot->shownCaption().contains(QLatin1Char('\n')),
               qPrintable(plot->shownCaption() + " at " + QString::number(plot->width())));
  panel.resize(700, 700);
  QTRY_VERIFY2(plot->shownCaption().contains(QLatin1Char('\n')),
               qPrintable(plot->shownCaption() + " at " + QString::number(plot->width())));
  QCOMPARE(QString(plot->shownCaption()).replace(QLatin1Char('\n'), QLatin1Char(' ')),
           plot->caption());
  QFont captionFont = plot->font();  // the caption's: 0.95 of the plot's
  captionFont.setPointSizeF(captionFont.pointSizeF() * 0.95);
  const QFontMetrics captionMetrics(captionFont);
  for (const QString& line : plot->shownCaption().split(QLatin1Char('\n'))) {
    QVERIFY2(captionMetrics.horizontalAdvance(line) <= plot->width(), qPrintable(line));
  }
  panel.hide();

  // Perplexity: 2^bits.
  results->setMetric("valid_perplexity");
  QVERIFY(std::abs(plot->series()[0]->data()->at(0)->value - std::pow(2.0, 2.075)) < 1e-9);

  // One seed each: error bars of zero; a configuration without results has no point.
  test::ExperimentTestProject single(40, "[1]");
  ProjectDocument other;
  other.load(single.projectFile());
  ExperimentsPanel second(other);
  test::fillStore(*second.plan(), {3});
  second.refreshStatus();
  QCOMPARE(second.resultsView()->plot()->pointCount(), 3);
  for (QCPErrorBars* bars : second.resultsView()->plot()->errorBars()) {
    for (int i = 0; i < bars->dataCount(); ++i) QCOMPARE(bars->data()->at(i).errorPlus, 0.0);
  }

  // One configuration with results, against the learning rate: a band around its rate, not a
  // span into negative rates.
  test::ExperimentTestProject lonely(40, "[1]");
  ProjectDocument third;
  third.load(lonely.projectFile());
  ExperimentsPanel one(third);
  test::fillStore(*one.plan(), {1, 2, 3});
  one.refreshStatus();
  one.resultsView()->setAxis(1);
  MetricAxisPlot* onePoint = one.resultsView()->plot();
  QCOMPARE(onePoint->pointCount(), 1);
  const QCPRange keys = onePoint->xAxis->range();
  const double rate = onePoint->series()[0]->data()->at(0)->key;
  QVERIFY2(
      keys.lower > 0.0 && keys.contains(rate) && keys.size() < 4.0 * rate,
      qPrintable(QStringLiteral("%1..%2 around %3").arg(keys.lower).arg(keys.upper).arg(rate)));
}

void ExperimentsPanelTest::parallelCoordinatesHasALinePerConfiguration() {
  test::ExperimentTestProject project(40, "[1, 2]");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  QVERIFY(panel.plan().has_value());
  ParallelCoordinatesView* view = panel.resultsView()->parallel();
  QCOMPARE(view->lineCount(), 0);
  test::fillStore(*panel.plan(), {7});  // configuration 4 has one seed of two
  panel.refreshStatus();
  QCOMPARE(view->axisCount(), 3);  // type, lr and the metric
  QCOMPARE(view->lineCount(), 4);
  std::set<qint64> configurations;
  for (int i = 0; i < view->lineCount(); ++i) configurations.insert(view->lineConfiguration(i));
  QCOMPARE(configurations, (std::set<qint64>{0, 1, 2, 3}));
  // The best (lowest) is drawn last, darkest.
  QCOMPARE(view->lineConfiguration(view->lineCount() - 1), qint64{0});
  QVERIFY(view->lineColour(view->lineCount() - 1).lightness() < view->lineColour(0).lightness());

  // Hovering a line picks it out.
  view->resize(600, 320);
  QImage image(view->size(), QImage::Format_ARGB32);
  QPainter painter(&image);
  view->paint(painter, view->size());
  painter.end();
  QVERIFY(!image.isNull());

  // A configuration with no trial done has no line.
  test::ExperimentTestProject other(40, "[1, 2]");
  ProjectDocument otherDocument;
  otherDocument.load(other.projectFile());
  ExperimentsPanel second(otherDocument);
  test::fillStore(*second.plan(), {4, 5});
  second.refreshStatus();
  QCOMPARE(second.resultsView()->parallel()->lineCount(), 3);
}

void ExperimentsPanelTest::resultsExportAsCsv() {
  test::ExperimentTestProject project(40, "[1, 2]");
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  test::fillStore(*panel.plan());
  panel.refreshStatus();
  ExportBar* bar = panel.resultsView()->exportBar();
  QVERIFY(bar->csvButton()->isEnabled());
  QTemporaryDir out;
  const QString csv = out.filePath(QStringLiteral("results.csv"));
  QCOMPARE(bar->saveCsvTo(csv), QString());
  const std::string text = readText(csv);
  QCOMPARE(text, engine::resultsCsv(*panel.plan(), panel.snapshot().results));
  QVERIFY(text.rfind("configuration,model.layers[0].type,training.optimizer.lr,", 0) == 0);
  panel.resultsView()->resize(900, 400);
  for (const int tab : {0, 1}) {
    panel.resultsView()->figures()->setCurrentIndex(tab);
    const QString png = out.filePath(QStringLiteral("figure-%1.png").arg(tab));
    QCOMPARE(bar->saveFigureTo(png), QString());
    QFile file(png);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(4), QByteArray("\x89PNG"));
  }
}

void ExperimentsPanelTest::launchWithoutMrnnSaysSo() {
  test::ExperimentTestProject project;
  ProjectDocument document;
  document.load(project.projectFile());
  ExperimentsPanel panel(document);
  panel.setProgram(QString());
  QVERIFY(!panel.launchButton()->isEnabled());
  QVERIFY2(panel.queueLabel()->text().contains(QStringLiteral("mrnn")) &&
               panel.queueLabel()->text().contains(QStringLiteral("not found")),
           qPrintable(panel.queueLabel()->text()));
  QVERIFY(!panel.launch());
  // A program that cannot run is reported, not crashed on.
  panel.setProgram(project.folder() + QStringLiteral("/no-such-mrnn"));
  QVERIFY(!panel.launch());
  QVERIFY2(panel.queueLabel()->text().contains(QStringLiteral("Could not launch")),
           qPrintable(panel.queueLabel()->text()));
}

QTEST_MAIN(ExperimentsPanelTest)
#include "test_experiments_panel.moc"
