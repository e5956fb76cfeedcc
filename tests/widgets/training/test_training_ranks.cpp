// The training monitor with a run on several processes: the panel starts the built `mrnn train
// --nproc N`, follows the run through the run store and shows each rank's throughput.
#include <signal.h>

#include <qcustomplot.h>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "engine/runtime/machine_resources.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_store.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/launcher_output.h"
#include "widgets/training/process_count_box.h"
#include "widgets/training/rank_throughput_view.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"

using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RankThroughputView;
using mrnn::widgets::RunBanner;
using mrnn::widgets::TrainingCharts;
using mrnn::widgets::TrainingController;
using mrnn::widgets::TrainingMonitorPanel;
using mrnn::widgets::test::TrainingTestProject;
using mrnn::widgets::test::valuesOf;
using Series = TrainingCharts::Series;

namespace {

// A project of 16 streams: two ranks of 8.
TrainingTestProject::Options rankOptions(qint64 maxSteps, qint64 batch = 16) {
  TrainingTestProject::Options options;
  options.batchSize = batch;
  options.maxSteps = maxSteps;
  options.validateEvery = 10;
  options.checkpointEvery = 10;
  return options;
}

// The children of process `parent` whose environment has RANK=<rank>.
qint64 rankProcess(qint64 parent, int rank) {
  const QByteArray wanted = "RANK=" + QByteArray::number(rank);
  for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
    bool number = false;
    const qint64 pid = entry.toLongLong(&number);
    if (!number) continue;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 2 || fields[1].toLongLong() != parent) continue;
    QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
    if (!environ.open(QIODevice::ReadOnly)) continue;
    if (environ.readAll().split('\0').contains(wanted)) return pid;
  }
  return 0;
}

bool processExists(qint64 pid) {
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
}

}  // namespace

class TrainingRanksTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void launcherErrorsAreSaidOnce();
  void processCountIsClampedToTheMachine();
  void rankViewFlagsASlowRank();
  void chartsDrawEachRanksThroughput();
  void twoProcessesTrainOneRunShowingEachRank();
  void anUnevenBatchShowsTheRefusal();
  void stopEndsEveryRankWithACheckpointAndResumeContinues();
  void aKilledRankIsNamed();

 private:
  // A monitor on `project` that trains on `processes` processes with the built mrnn.
  std::unique_ptr<TrainingMonitorPanel> monitorFor(ProjectDocument& document, int processes);
};

void TrainingRanksTest::initTestCase() {
  QVERIFY2(QFileInfo(QStringLiteral(MRNN_CLI_PATH)).isExecutable(), MRNN_CLI_PATH);
  if (mrnn::engine::hardwareThreads() < 2) {
    QSKIP("two processes need two processors (the box offers no more than the machine has)");
  }
}

std::unique_ptr<TrainingMonitorPanel> TrainingRanksTest::monitorFor(ProjectDocument& document,
                                                                    int processes) {
  auto panel = std::make_unique<TrainingMonitorPanel>(document);
  panel->controller()->setProgram(QStringLiteral(MRNN_CLI_PATH));
  panel->setProcessCount(processes);
  panel->resize(1100, 700);
  panel->show();
  return panel;
}

void TrainingRanksTest::launcherErrorsAreSaidOnce() {
  // What `mrnn train --nproc 2` prints on stderr for a batch of 15.
  const QStringList uneven = {
      QStringLiteral("mrnn: rank 1: training could not start: training.batch_size: 15 streams "
                     "do not split evenly over 2 ranks; give a batch size divisible by 2"),
      QStringLiteral("mrnn: rank 0: training could not start: training.batch_size: 15 streams "
                     "do not split evenly over 2 ranks; give a batch size divisible by 2"),
      QStringLiteral("mrnn: rank 0 (pid 4815) exited with code 1; the other ranks stop within "
                     "the 60 s timeout"),
      QStringLiteral("mrnn: the run's last checkpoint is intact; `mrnn resume` (with --nproc) "
                     "continues it")};
  QCOMPARE(mrnn::widgets::launcherFailureText(uneven),
           QStringLiteral("training.batch_size: 15 streams do not split evenly over 2 ranks; "
                          "give a batch size divisible by 2"));
  // A killed rank: the launcher's word on the signal first, then what the survivors saw.
  const QStringList killed = {
      QStringLiteral("mrnn: rank 1 (pid 123) was killed by signal 9 (SIGKILL); the other ranks "
                     "stop within the 60 s timeout"),
      QStringLiteral("mrnn: rank 0: run 1 failed at step 15: rank 1 is gone (killed, or no "
                     "answer within the 60 s timeout)"),
      QStringLiteral("mrnn: the run's last checkpoint is intact; `mrnn resume` (with --nproc) "
                     "continues it")};
  QCOMPARE(mrnn::widgets::launcherFailureText(killed),
           QStringLiteral("rank 1 (pid 123) was killed by signal 9 (SIGKILL)\nrank 1 is gone "
                          "(killed, or no answer within the 60 s timeout)"));
  // Only a bare exit code: that is all there is to say.
  QCOMPARE(mrnn::widgets::launcherFailureText({QStringLiteral(
               "mrnn: rank 0 (pid 7) exited with code 1; the other ranks stop within the 60 s "
               "timeout")}),
           QStringLiteral("rank 0 (pid 7) exited with code 1"));
  QCOMPARE(mrnn::widgets::runNamedIn(QStringLiteral("run 12, checkpoint ./checkpoints/x.pt")), 12);
  QCOMPARE(mrnn::widgets::runNamedIn(QStringLiteral("resumed run 3 at step 40")), 3);
  QCOMPARE(mrnn::widgets::runNamedIn(killed[1]), 1);
  QCOMPARE(mrnn::widgets::runNamedIn(QStringLiteral("validation at step 10: 3.2")), 0);
}

void TrainingRanksTest::processCountIsClampedToTheMachine() {
  TrainingTestProject project(rankOptions(20));
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingMonitorPanel panel(document);
  QSignalSpy chosen(&panel, &TrainingMonitorPanel::processCountChanged);
  QCOMPARE(panel.processCount(), 1);  // the default trains in the workbench
  QCOMPARE(panel.processCountBox()->suffix(), QStringLiteral(" process"));
  const int processors = mrnn::engine::hardwareThreads();
  panel.setProcessCount(processors + 5);
  QCOMPARE(panel.processCount(), processors);
  QCOMPARE(panel.controller()->processes(), processors);
  QCOMPARE(chosen.count(), 0);  // set from outside (the settings): not the user's choice
  // The user's choices are announced (the main window keeps them).
  panel.processCountBox()->setValue(1);
  QCOMPARE(panel.controller()->processes(), 1);
  QVERIFY(!panel.pauseAction()->toolTip().contains(QStringLiteral("cannot pause")));
  panel.processCountBox()->setValue(2);
  QCOMPARE(chosen.count(), 2);
  QCOMPARE(chosen.at(1).at(0).toInt(), 2);
  QCOMPARE(panel.controller()->processes(), 2);
  QCOMPARE(panel.processCountBox()->suffix(), QStringLiteral(" processes"));
  QVERIFY(panel.processCountBox()->toolTip().contains(QStringLiteral("--nproc")));
  // Pause says why it cannot pause such a run.
  QVERIFY2(panel.pauseAction()->toolTip().contains(QStringLiteral("cannot pause")),
           qPrintable(panel.pauseAction()->toolTip()));
}

void TrainingRanksTest::rankViewFlagsASlowRank() {
  RankThroughputView view;
  view.addStep({});  // a run on one process: nothing to show
  QVERIFY(view.isHidden());
  view.addStep({12300.0, 11900.0});
  QCOMPARE(view.rankCount(), 2);
  QVERIFY(!view.isHidden());
  QCOMPARE(view.slowestRank(), 1);
  QVERIFY(!view.slowestFlagged());  // 3% behind: not worth a flag
  QVERIFY2(view.text().contains(QStringLiteral("rank 0 12,300 sym/s")), qPrintable(view.text()));
  QVERIFY2(view.text().contains(QStringLiteral("rank 1 11,900 sym/s (slowest, 3% behind)")),
           qPrintable(view.text()));
  // Rank 0 falls far behind and stays there: the smoothed rate follows, and it is flagged.
  for (int i = 0; i < 30; ++i) view.addStep({6000.0, 12000.0});
  QCOMPARE(view.slowestRank(), 0);
  QVERIFY(view.slowestFlagged());
  QVERIFY2(view.text().contains(QStringLiteral("rank 0 6,0")), qPrintable(view.text()));
  view.clear();
  QVERIFY(view.isHidden());
  QCOMPARE(view.rankCount(), 0);
}

void TrainingRanksTest::chartsDrawEachRanksThroughput() {
  TrainingCharts charts;
  charts.startLive(QStringLiteral("live"));
  for (int step = 1; step <= 5; ++step) {
    mrnn::engine::StepEvent event;
    event.step = step;
    event.epoch = step / 10.0;
    event.wallSeconds = step * 0.5;
    event.loss = 2.0;
    event.symbolsPerSecond = 20000.0;
    event.rankSymbolsPerSecond = {11000.0 + step, 9000.0 - step};
    charts.addStep(event);
  }
  QCOMPARE(charts.liveRankCount(), 2);
  QCOMPARE(charts.liveRankGraph(0)->parentPlot(), charts.plot(TrainingCharts::Chart::Throughput));
  QCOMPARE(valuesOf(charts.liveRankGraph(1)), (QVector<double>{8999, 8998, 8997, 8996, 8995}));
  // The hover read-out names each rank under the run's total.
  charts.replot();
  charts.showReadout(TrainingCharts::Chart::Throughput, 3.0);
  const QString readout = charts.readoutText(TrainingCharts::Chart::Throughput);
  QVERIFY2(readout.contains(QStringLiteral("rank 0   11,003")) &&
               readout.contains(QStringLiteral("rank 1   8,997")),
           qPrintable(readout));
  // In the CSV, and redrawn against another x.
  QVERIFY(charts.toCsv().contains(",rank1_symbols_per_second,5,0.5,2.5,8995\n"));
  charts.setXAxis(TrainingCharts::XAxis::WallTime);
  QCOMPARE(charts.liveRankGraph(0)->data()->at(4)->key, 2.5);
  // Hiding the live run hides its ranks; a new run starts without them.
  charts.setRunVisible(0, false);
  QVERIFY(!charts.liveRankGraph(1)->visible());
  charts.setRunVisible(0, true);
  charts.startLive(QStringLiteral("next"));
  QCOMPARE(charts.liveRankCount(), 0);
}

void TrainingRanksTest::twoProcessesTrainOneRunShowingEachRank() {
  TrainingTestProject project(rankOptions(20));
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  auto panel = monitorFor(document, 2);
  QSignalSpy ended(panel.get(), &TrainingMonitorPanel::runEnded);
  QList<mrnn::engine::StepEvent> steps;
  bool pauseOffWhileTraining = true;
  bool boxOffWhileTraining = true;
  connect(panel->controller(), &TrainingController::stepReceived, this,
          [&](const mrnn::engine::StepEvent& event) {
            steps.append(event);
            pauseOffWhileTraining = pauseOffWhileTraining && !panel->pauseAction()->isEnabled();
            boxOffWhileTraining = boxOffWhileTraining && !panel->processCountBox()->isEnabled();
          });
  panel->startAction()->trigger();
  QVERIFY(panel->controller()->isRunning());
  QCOMPARE(panel->controller()->runProcesses(), 2);
  QVERIFY(ended.wait(120000));
  QVERIFY2(ended.at(0).at(0).toBool(),
           qPrintable(ended.at(0).at(1).toString() + "\n" + panel->logText()));
  QVERIFY(pauseOffWhileTraining);
  QVERIFY(boxOffWhileTraining);
  QVERIFY(panel->processCountBox()->isEnabled());

  // One run, written by rank 0 with each rank's throughput, and drawn point for point.
  const qint64 runId = panel->controller()->runId();
  QVERIFY(runId > 0);
  mrnn::engine::RunCatalogue catalogue(document.folder().toStdString());
  QCOMPARE(static_cast<int>(catalogue.runs().size()), 1);
  QCOMPARE(catalogue.run(runId)->status, mrnn::engine::RunStatus::Finished);
  QCOMPARE(steps.size(), 20);
  for (int i = 0; i < steps.size(); ++i) QCOMPARE(steps[i].step, i + 1);
  QCOMPARE(panel->charts()->liveGraph(Series::LossRaw)->dataCount(), 20);
  QCOMPARE(panel->charts()->liveGraph(Series::Validation)->dataCount(), 2);
  QCOMPARE(panel->charts()->liveRankCount(), 2);
  for (int rank = 0; rank < 2; ++rank) {
    QVector<double> stored;
    for (const auto& point :
         catalogue.store().metrics(runId, "rank" + std::to_string(rank) + "/symbols_per_s")) {
      stored.append(point.value);
    }
    QCOMPARE(stored.size(), 20);
    QCOMPARE(valuesOf(panel->charts()->liveRankGraph(rank)), stored);
    QVERIFY(stored.first() > 0);
  }
  // The figures under the charts: each rank's rate, and the run's end as a one-process run's.
  RankThroughputView* ranks = panel->rankThroughput();
  QVERIFY(ranks->isVisible());
  QCOMPARE(ranks->rankCount(), 2);
  QVERIFY2(ranks->text().contains(QStringLiteral("rank 0 ")) &&
               ranks->text().contains(QStringLiteral("rank 1 ")),
           qPrintable(ranks->text()));
  QCOMPARE(panel->banner()->kind(), RunBanner::Kind::Success);
  QVERIFY2(panel->banner()->text().contains(QStringLiteral("Run %1 finished: 20 steps").arg(runId)),
           qPrintable(panel->banner()->text()));
  QVERIFY(panel->banner()->text().contains(QStringLiteral("Best validation")));
  QCOMPARE(panel->findChild<QLabel*>(QStringLiteral("stepValue"))->text(), QStringLiteral("20"));
  QVERIFY2(panel->logText().contains(QStringLiteral("--nproc 2")), qPrintable(panel->logText()));
  QVERIFY(panel->logText().contains(QStringLiteral("validation at step 20")));
  QVERIFY(panel->logText().contains(QStringLiteral("saved the latest checkpoint at step 20")));
}

void TrainingRanksTest::anUnevenBatchShowsTheRefusal() {
  TrainingTestProject project(rankOptions(20, 15));
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  auto panel = monitorFor(document, 2);
  QSignalSpy ended(panel.get(), &TrainingMonitorPanel::runEnded);
  panel->start();
  QVERIFY(ended.wait(120000));
  QCOMPARE(ended.at(0).at(0).toBool(), false);
  QVERIFY(panel->banner()->isVisible());
  QCOMPARE(panel->banner()->kind(), RunBanner::Kind::Failure);
  const QString text = panel->banner()->text();
  const QString refusal =
      QStringLiteral("training.batch_size: 15 streams do not split evenly over 2 ranks");
  QVERIFY2(text.contains(refusal), qPrintable(text));
  QCOMPARE(text.count(refusal), 1);  // both ranks said it; the banner says it once
  QVERIFY2(!text.contains(QStringLiteral("mrnn: rank")), qPrintable(text));
  QVERIFY(panel->startAction()->isEnabled());
  QVERIFY(!panel->controller()->isRunning());
}

void TrainingRanksTest::stopEndsEveryRankWithACheckpointAndResumeContinues() {
  TrainingTestProject project(rankOptions(100000));
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  auto panel = monitorFor(document, 2);
  QSignalSpy ended(panel.get(), &TrainingMonitorPanel::runEnded);
  QSignalSpy steps(panel->controller(), &TrainingController::stepReceived);
  panel->start();
  QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 15, 120000);
  const qint64 launcher = panel->controller()->launcherProcess();
  QVERIFY(launcher > 0);
  const qint64 rank1 = rankProcess(launcher, 1);
  QVERIFY(rank1 > 0);
  QVERIFY(panel->stopAction()->isEnabled());
  panel->stopAction()->trigger();
  QCOMPARE(panel->controller()->state(), TrainingController::State::Stopping);
  QVERIFY(!panel->stopAction()->isEnabled());
  QVERIFY(!panel->startAction()->isEnabled());
  QVERIFY(ended.wait(120000));
  QVERIFY2(ended.at(0).at(0).toBool(), qPrintable(ended.at(0).at(1).toString()));
  // SIGTERM reached every rank through the launcher: all of them have ended.
  QVERIFY(!processExists(launcher));
  QVERIFY(!processExists(rank1));
  const qint64 runId = panel->controller()->runId();
  QVERIFY(runId > 0);
  mrnn::engine::RunCatalogue catalogue(document.folder().toStdString());
  const auto record = catalogue.run(runId);
  QCOMPARE(record->status, mrnn::engine::RunStatus::Stopped);
  QVERIFY(record->steps > 0 && record->steps < 100000);
  QCOMPARE(panel->banner()->kind(), RunBanner::Kind::Information);
  QVERIFY2(panel->banner()->text().contains(
               QStringLiteral("Run %1 stopped at step %2").arg(runId).arg(record->steps)),
           qPrintable(panel->banner()->text()));
  const QString checkpoint = QString::fromStdString(catalogue.checkpointToResume(runId));

  // Resume on two processes for 12 more steps: the same run goes on from its checkpoint.
  const qint64 stoppedAt = record->steps;
  auto options = rankOptions(stoppedAt + 12);
  project.write(options);
  QCOMPARE(project.loadInto(document), QString());
  ended.clear();
  steps.clear();
  panel->startFromCheckpoint(runId, checkpoint);
  QVERIFY(panel->controller()->isRunning());
  QVERIFY(panel->controller()->launcherProcess() > 0);
  QVERIFY(ended.wait(120000));
  QVERIFY2(ended.at(0).at(0).toBool(), qPrintable(ended.at(0).at(1).toString()));
  QCOMPARE(panel->controller()->runId(), runId);
  QVERIFY2(panel->logText().contains(QStringLiteral("--nproc 2 --checkpoint ")),
           qPrintable(panel->logText()));
  QCOMPARE(steps.count(), 12);  // the steps after the checkpoint, none of the history again
  QCOMPARE(steps.first().at(0).value<mrnn::engine::StepEvent>().step, stoppedAt + 1);
  QCOMPARE(catalogue.run(runId)->status, mrnn::engine::RunStatus::Finished);
  QVERIFY2(panel->banner()->text().contains(QStringLiteral("Run %1 finished").arg(runId)),
           qPrintable(panel->banner()->text()));
  // The curve holds the history before the checkpoint and the resumed steps after it.
  QCOMPARE(panel->charts()->liveGraph(Series::LossRaw)->dataCount(), stoppedAt + 12);
}

void TrainingRanksTest::aKilledRankIsNamed() {
  TrainingTestProject project(rankOptions(100000));
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  auto panel = monitorFor(document, 2);
  QSignalSpy ended(panel.get(), &TrainingMonitorPanel::runEnded);
  QSignalSpy steps(panel->controller(), &TrainingController::stepReceived);
  panel->start();
  QTRY_VERIFY_WITH_TIMEOUT(steps.count() > 0, 120000);
  const qint64 launcher = panel->controller()->launcherProcess();
  QVERIFY(launcher > 0);
  const qint64 rank0 = rankProcess(launcher, 0);
  const qint64 rank1 = rankProcess(launcher, 1);
  QVERIFY2(rank0 > 0 && rank1 > 0, "the ranks are not among the launcher's children");
  QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGKILL), 0);
  QVERIFY(ended.wait(120000));
  QCOMPARE(ended.at(0).at(0).toBool(), false);
  const QString text = panel->banner()->text();
  QVERIFY2(text.contains(QStringLiteral("Run %1 failed").arg(panel->controller()->runId())),
           qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("rank 1 (pid %1) was killed by signal 9").arg(rank1)),
           qPrintable(text));
  // Rank 0 stopped on its own (the launcher waits for every rank before it exits).
  QVERIFY(!processExists(launcher));
  QVERIFY(!processExists(rank0));
}

QTEST_MAIN(TrainingRanksTest)
#include "test_training_ranks.moc"
