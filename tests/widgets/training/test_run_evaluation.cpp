// The runs panel's Evaluate: a run's checkpoint scored on the test split on a worker thread,
// the figure recorded as the run's; a checkpoint that cannot be read met with the run's other
// one, when that is whole (a banner link).

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>
#include <memory>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/runs_table_model.h"
#include "widgets/training/training_controller.h"

using mrnn::engine::RunStore;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunsPanel;
using mrnn::widgets::RunsTableModel;
using mrnn::widgets::TrainingController;
using mrnn::widgets::test::TrainingTestProject;

class RunEvaluationTest : public QObject {
  Q_OBJECT

 private slots:
  // Each test has a real run in a project of its own, trained to its end: the trainer records
  // its test figure then.
  void init() {
    project_ = std::make_unique<TrainingTestProject>();
    document_ = std::make_unique<ProjectDocument>();
    QCOMPARE(project_->loadInto(*document_), QString());
    controller_ = std::make_unique<TrainingController>(*document_);
    QSignalSpy finished(controller_.get(), &TrainingController::finished);
    QVERIFY(controller_->start());
    QVERIFY(finished.wait(60000));
    trainerTest_ = finished.at(0).at(0).value<mrnn::engine::FinishedEvent>().test;
  }

  void cleanup() {
    controller_.reset();
    document_.reset();
    project_.reset();
  }

  void evaluateScoresTheBestCheckpointAndRecordsIt() {
    ProjectDocument& document = *document_;
    TrainingController& controller = *controller_;
    const double trainerTest = trainerTest_;
    QVERIFY(trainerTest > 0);
    const qint64 runId = controller.runId();
    const std::string database = mrnn::engine::RunPaths::database(project_->folder().toStdString());
    RunStore(database).setTestResult(runId, 9.0);  // overwritten by the evaluation below

    RunsPanel panel(document);
    panel.attachController(&controller);
    panel.show();
    QCOMPARE(panel.model()
                 ->index(panel.model()->rowOfRun(runId), RunsTableModel::Test)
                 .data()
                 .toString(),
             QStringLiteral("9.0000"));
    panel.selectRuns({runId});
    QSignalSpy evaluated(&panel, &RunsPanel::evaluationFinished);
    panel.evaluateSelected();
    QVERIFY(panel.isEvaluating());
    QVERIFY(!panel.evaluateAction()->isEnabled());
    QVERIFY(evaluated.wait(60000));
    QVERIFY2(evaluated.at(0).at(1).toBool(), qPrintable(evaluated.at(0).at(2).toString()));
    // The same checkpoint (best), split and settings as the trainer's: the same figure.
    const auto stored = RunStore(database).run(runId);
    QVERIFY(stored->testResult.has_value());
    QVERIFY2(std::fabs(*stored->testResult - trainerTest) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(*stored->testResult).arg(trainerTest)));
    QCOMPARE(RunStore(database).metrics(runId, "test/bpc").size(), size_t(2));
    QCOMPARE(panel.model()
                 ->index(panel.model()->rowOfRun(runId), RunsTableModel::Test)
                 .data()
                 .toString(),
             QString::number(trainerTest, 'f', 4));
    QVERIFY(panel.banner()->text().contains(QStringLiteral("bits/symbol")));
    QVERIFY(!panel.isEvaluating());
  }

  // The defect: a run whose best checkpoint was damaged could not be evaluated from the
  // window: the failure named the run's latest checkpoint as whole, and nothing in the window
  // could score it. The banner now does, with one click.
  void aDamagedBestCheckpointOffersTheLatestOne() {
    ProjectDocument& document = *document_;
    const qint64 runId = controller_->runId();
    const std::string folder = project_->folder().toStdString();
    {
      QFile best(QString::fromStdString(mrnn::engine::RunPaths::best(folder, runId)));
      QVERIFY(best.open(QIODevice::ReadWrite));
      best.seek(best.size() / 2);
      best.write("damage");
    }
    RunsPanel panel(document);
    panel.show();
    panel.selectRuns({runId});
    QSignalSpy evaluated(&panel, &RunsPanel::evaluationFinished);
    panel.evaluateSelected();
    QVERIFY(evaluated.wait(60000));
    QVERIFY(!evaluated.at(0).at(1).toBool());
    QVERIFY2(panel.banner()->text().contains(QStringLiteral("checksum")),
             qPrintable(panel.banner()->text()));
    QVERIFY2(panel.banner()->hasAction(), "no way to the whole latest checkpoint");
    panel.banner()->triggerAction();
    QVERIFY(evaluated.wait(60000));
    QVERIFY2(evaluated.at(1).at(1).toBool(), qPrintable(evaluated.at(1).at(2).toString()));
    const QString latest = QString::fromStdString(mrnn::engine::RunPaths::latest(folder, runId));
    QVERIFY2(panel.banner()->text().contains(QDir::toNativeSeparators(latest)),
             qPrintable(panel.banner()->text()));
    QVERIFY(RunStore(mrnn::engine::RunPaths::database(folder)).run(runId)->testResult);
  }

 private:
  std::unique_ptr<TrainingTestProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<TrainingController> controller_;
  double trainerTest_ = 0.0;
};

QTEST_MAIN(RunEvaluationTest)
#include "test_run_evaluation.moc"
