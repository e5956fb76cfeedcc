#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>
#include <memory>

#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/training_controller.h"

using mrnn::widgets::ProjectDocument;
using mrnn::widgets::TrainingController;
using mrnn::widgets::test::TrainingTestProject;
using State = TrainingController::State;

namespace {

std::string databaseOf(const TrainingTestProject& project) {
  return mrnn::engine::RunPaths::database(project.folder().toStdString());
}

// Waits until `done` holds, spinning the event loop; false after `ms`.
template <typename Predicate>
bool waitFor(Predicate done, int ms = 60000) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > ms) return false;
    QTest::qWait(10);
  }
  return true;
}

}  // namespace

class TrainingControllerTest : public QObject {
  Q_OBJECT

 private slots:
  void eventLoopKeepsTurningWhileARunTrains();
  void startDeliversStepsValidationAndFinishAndRecordsTheRun();
  void pauseHoldsStepsResumeContinuesStopEndsStopped();
  void resumeFromCheckpointContinuesTheRun();
  void failingRunReportsTheReason();
  void untitledProjectIsRefused();
  void destroyingWhileRunningStopsCleanly();
};

void TrainingControllerTest::eventLoopKeepsTurningWhileARunTrains() {
  TrainingTestProject::Options options;
  options.maxSteps = 400;
  options.validateEvery = 100;
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingController controller(document);
  QSignalSpy finished(&controller, &TrainingController::finished);

  // A GUI timer that must keep firing while the engine thread trains.
  int ticks = 0;
  qint64 longestGap = 0;
  QElapsedTimer sinceTick;
  QTimer ticker;
  ticker.setInterval(10);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    if (ticks > 0) longestGap = std::max(longestGap, sinceTick.elapsed());
    sinceTick.restart();
    ++ticks;
  });
  int stepsWhileTicking = 0;
  QObject::connect(&controller, &TrainingController::stepReceived,
                   [&] { stepsWhileTicking += ticks > 0 ? 1 : 0; });

  QElapsedTimer clock;
  clock.start();
  ticker.start();
  sinceTick.start();
  QVERIFY(controller.start());
  QVERIFY(controller.isRunning());
  QVERIFY(finished.wait(120000));
  const qint64 elapsed = clock.elapsed();
  ticker.stop();

  QCOMPARE(controller.stepsReceived(), 400);
  QCOMPARE(stepsWhileTicking, 400);
  // 10 ms ticks: a blocked loop would give a handful. Allow a loaded machine a factor 5.
  qInfo("run took %lld ms, %d ticks, longest gap %lld ms", elapsed, ticks, longestGap);
  QVERIFY2(ticks >= std::max<qint64>(5, elapsed / 50),
           qPrintable(QStringLiteral("only %1 ticks in %2 ms").arg(ticks).arg(elapsed)));
  QVERIFY2(longestGap < 1000, qPrintable(QStringLiteral("gap %1 ms").arg(longestGap)));
}

void TrainingControllerTest::startDeliversStepsValidationAndFinishAndRecordsTheRun() {
  TrainingTestProject project;  // 30 steps, validation every 10
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingController controller(document);
  QSignalSpy steps(&controller, &TrainingController::stepReceived);
  QSignalSpy validations(&controller, &TrainingController::validationReceived);
  QSignalSpy checkpoints(&controller, &TrainingController::checkpointSaved);
  QSignalSpy logs(&controller, &TrainingController::logMessage);
  QSignalSpy finished(&controller, &TrainingController::finished);
  QSignalSpy failed(&controller, &TrainingController::failed);
  QSignalSpy states(&controller, &TrainingController::stateChanged);
  bool runningAtFinish = true;
  QObject::connect(&controller, &TrainingController::finished,
                   [&] { runningAtFinish = controller.isRunning(); });

  QVERIFY(controller.start());
  QVERIFY(!controller.start());  // one run at a time
  QVERIFY(finished.wait(60000));
  QCOMPARE(failed.count(), 0);
  QVERIFY(!runningAtFinish);
  QCOMPARE(controller.state(), State::Idle);

  QCOMPARE(steps.count(), 30);
  for (int i = 0; i < steps.count(); ++i) {
    const auto event = steps.at(i).at(0).value<mrnn::engine::StepEvent>();
    QCOMPARE(event.step, static_cast<int64_t>(i + 1));
    QVERIFY(event.loss > 0);
    QVERIFY(event.learningRate > 0);
  }
  QCOMPARE(validations.count(), 3);
  QCOMPARE(validations.at(2).at(0).value<mrnn::engine::ValidationEvent>().step, 30);
  QVERIFY(checkpoints.count() >= 2);  // best at the first validation, latest at the end
  QVERIFY(logs.count() >= 1);

  const auto done = finished.at(0).at(0).value<mrnn::engine::FinishedEvent>();
  QCOMPARE(done.step, 30);
  QVERIFY(!done.stopped);
  QVERIFY(done.bestValid > 0);
  QVERIFY(done.test > 0);

  QCOMPARE(states.count(), 2);
  QCOMPARE(states.at(0).at(0).value<State>(), State::Running);
  QCOMPARE(states.at(1).at(0).value<State>(), State::Idle);

  // The run is in the project's database, as the engine recorded it.
  const mrnn::engine::RunStore store(databaseOf(project));
  const auto runs = store.listRuns();
  QCOMPARE(runs.size(), size_t(1));
  QCOMPARE(controller.runId(), runs[0].id);
  QCOMPARE(runs[0].status, mrnn::engine::RunStatus::Finished);
  QCOMPARE(runs[0].steps, 30);
  QVERIFY(runs[0].bestValid.has_value());
  QCOMPARE(*runs[0].bestValid, done.bestValid);
  QCOMPARE(store.metrics(runs[0].id, "train/loss").size(), size_t(30));
  QVERIFY(QFileInfo::exists(QString::fromStdString(
      mrnn::engine::RunPaths::latest(project.folder().toStdString(), runs[0].id))));
}

void TrainingControllerTest::pauseHoldsStepsResumeContinuesStopEndsStopped() {
  TrainingTestProject::Options options;
  options.maxSteps = 100000;  // never ends on its own here
  options.validateEvery = 100000;
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingController controller(document);
  QSignalSpy finished(&controller, &TrainingController::finished);

  QVERIFY(controller.start());
  QVERIFY(waitFor([&] { return controller.stepsReceived() >= 5; }));
  controller.pause();
  QCOMPARE(controller.state(), State::Paused);
  // The step in flight may still arrive; after that nothing.
  QTest::qWait(400);
  const qint64 held = controller.stepsReceived();
  QTest::qWait(600);
  QCOMPARE(controller.stepsReceived(), held);
  {
    const mrnn::engine::RunStore store(databaseOf(project));
    QCOMPARE(store.listRuns().at(0).status, mrnn::engine::RunStatus::Paused);
  }

  controller.resumeRun();
  QCOMPARE(controller.state(), State::Running);
  QVERIFY(waitFor([&] { return controller.stepsReceived() >= held + 5; }));

  controller.stop();
  QCOMPARE(controller.state(), State::Stopping);
  QVERIFY(finished.wait(60000));
  const auto done = finished.at(0).at(0).value<mrnn::engine::FinishedEvent>();
  QVERIFY(done.stopped);
  QCOMPARE(done.step, controller.stepsReceived());
  QCOMPARE(controller.state(), State::Idle);
  const mrnn::engine::RunStore store(databaseOf(project));
  QCOMPARE(store.listRuns().at(0).status, mrnn::engine::RunStatus::Stopped);
}

void TrainingControllerTest::resumeFromCheckpointContinuesTheRun() {
  TrainingTestProject::Options options;
  options.maxSteps = 100000;
  options.validateEvery = 100000;
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingController controller(document);
  QSignalSpy finished(&controller, &TrainingController::finished);
  QVERIFY(controller.start());
  QVERIFY(waitFor([&] { return controller.stepsReceived() >= 3; }));
  controller.stop();
  QVERIFY(finished.wait(60000));
  const qint64 stoppedAt = finished.at(0).at(0).value<mrnn::engine::FinishedEvent>().step;
  const qint64 runId = controller.runId();
  QVERIFY(runId > 0);

  const QString latest =
      QString::fromStdString(mrnn::engine::RunPaths::latest(project.folder().toStdString(), runId));
  QSignalSpy steps(&controller, &TrainingController::stepReceived);
  QSignalSpy started(&controller, &TrainingController::started);
  QVERIFY(controller.resume(latest));
  QCOMPARE(started.count(), 1);
  QCOMPARE(started.at(0).at(0).toBool(), true);
  QVERIFY(waitFor([&] { return steps.count() >= 2; }));
  QCOMPARE(controller.runId(), runId);  // named by the engine's StartedEvent
  QCOMPARE(steps.at(0).at(0).value<mrnn::engine::StepEvent>().step, stoppedAt + 1);
  controller.stop();
  QVERIFY(finished.wait(60000));
  const mrnn::engine::RunStore store(databaseOf(project));
  QCOMPARE(store.listRuns().size(), size_t(1));  // the same run, continued
}

void TrainingControllerTest::failingRunReportsTheReason() {
  TrainingTestProject::Options options;
  options.train = QStringLiteral("missing-corpus.txt");
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingController controller(document);
  QSignalSpy failed(&controller, &TrainingController::failed);
  QSignalSpy finished(&controller, &TrainingController::finished);
  QVERIFY(controller.start());
  QVERIFY(failed.wait(60000));
  const QString reason = failed.at(0).at(0).toString();
  QVERIFY2(reason.contains(QStringLiteral("missing-corpus.txt")), qPrintable(reason));
  QCOMPARE(finished.count(), 0);
  QVERIFY(!controller.isRunning());
}

void TrainingControllerTest::untitledProjectIsRefused() {
  ProjectDocument document;  // untitled: no folder for runs.sqlite
  TrainingController controller(document);
  QSignalSpy failed(&controller, &TrainingController::failed);
  QVERIFY(!controller.start());
  QCOMPARE(failed.count(), 1);
  QCOMPARE(failed.at(0).at(0).toString(),
           QStringLiteral("Save the project first: runs are stored beside it"));
  QVERIFY(!controller.isRunning());
}

void TrainingControllerTest::destroyingWhileRunningStopsCleanly() {
  TrainingTestProject::Options options;
  options.maxSteps = 100000;
  options.validateEvery = 100000;
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  auto controller = std::make_unique<TrainingController>(document);
  QVERIFY(controller->start());
  QVERIFY(waitFor([&] { return controller->stepsReceived() >= 3; }));
  controller.reset();  // stops the run and joins its thread

  const mrnn::engine::RunStore store(databaseOf(project));
  const auto runs = store.listRuns();
  QCOMPARE(runs.size(), size_t(1));
  QCOMPARE(runs[0].status, mrnn::engine::RunStatus::Stopped);
  QVERIFY(runs[0].steps >= 3);
  QVERIFY(QFileInfo::exists(QString::fromStdString(
      mrnn::engine::RunPaths::latest(project.folder().toStdString(), runs[0].id))));
}

QTEST_MAIN(TrainingControllerTest)
#include "test_training_controller.moc"
