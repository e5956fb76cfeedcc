// How the training panel's banner says a run ended: failed (the reason, its detail behind a
// link), stopped, finished early and why, stalled, resumed with a note.
#include <QMessageBox>
#include <QSignalSpy>
#include <QtTest>

#include "engine/store/run_paths.h"
#include "panel_on_project.h"
#include "training_test_project.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"

using mrnn::widgets::RunBanner;
using mrnn::widgets::TrainingController;
using mrnn::widgets::test::PanelOnProject;
using mrnn::widgets::test::TrainingTestProject;

class RunEndBannerTest : public QObject {
  Q_OBJECT

 private slots:
  void failingRunShowsTheReasonInTheBanner();
  void aResumedRunsNoteStaysInTheBanner();
  void aStoppedRunsBannerReadsAsSentences();
  void aRunThatEndsEarlySaysWhy();
  void aRunWhoseOptimiserStalledIsNotShownAsASuccess();
  void aFailuresDetailIsBehindALink();
};

void RunEndBannerTest::failingRunShowsTheReasonInTheBanner() {
  TrainingTestProject::Options options;
  options.train = QStringLiteral("no-such-corpus.txt");
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  QVERIFY(on.trainToEnd());
  QCOMPARE(ended.at(0).at(0).toBool(), false);
  const QString summary = ended.at(0).at(1).toString();
  QVERIFY2(summary.contains(QStringLiteral("no-such-corpus.txt")), qPrintable(summary));
  QVERIFY(panel.banner()->isVisible());
  QCOMPARE(panel.banner()->kind(), RunBanner::Kind::Failure);
  QVERIFY2(panel.banner()->text().contains(QStringLiteral("no-such-corpus.txt")),
           qPrintable(panel.banner()->text()));
  // No run was made: the training could not start (it read "Training failed", as of a run
  // that had trained and failed).
  QVERIFY2(panel.banner()->text().startsWith(QStringLiteral("Training could not start")),
           qPrintable(panel.banner()->text()));
  QVERIFY(panel.startAction()->isEnabled());
  // Nothing is starting any more: the empty charts say how to start.
  QVERIFY2(panel.charts()->placeholderText().contains(QStringLiteral("press Start")),
           qPrintable(panel.charts()->placeholderText()));
}

// Resumed after the project's learning rate was edited, a run keeps its own and says so where
// the researcher looks (the banner, through to how the run ends), not only in the messages;
// the panel's length applies.
void RunEndBannerTest::aResumedRunsNoteStaysInTheBanner() {
  TrainingTestProject::Options options;
  options.maxSteps = 10;
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  QVERIFY(on.trainToEnd());
  const qint64 runId = panel.controller()->runId();
  QVERIFY(runId > 0);

  options.learningRate = 0.02;
  options.maxSteps = 14;
  project.write(options);
  QCOMPARE(project.loadInto(document), QString());
  QSignalSpy notes(panel.controller(), &TrainingController::noteReceived);
  panel.startFromCheckpoint(runId, QString::fromStdString(mrnn::engine::RunPaths::latest(
                                       project.folder().toStdString(), runId)));
  QVERIFY(ended.wait(60000));
  QCOMPARE(notes.size(), 1);
  const QString banner = panel.banner()->text();
  QVERIFY2(banner.contains(QStringLiteral("Run %1 finished: 14 steps").arg(runId)),
           qPrintable(banner));
  QVERIFY2(banner.contains(QStringLiteral("optimizer.lr 0.02 (the run's: 0.01)")),
           qPrintable(banner));
  QVERIFY2(!banner.contains(QStringLiteral("max_steps")), qPrintable(banner));
}

// A run stopped after a validation: "... resume it from the Runs table. Best validation ...",
// each figure a sentence of its own (it read "table. best validation").
void RunEndBannerTest::aStoppedRunsBannerReadsAsSentences() {
  TrainingTestProject::Options options;
  options.maxSteps = 100000;
  options.validateEvery = 5;
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  QSignalSpy validated(panel.controller(), &TrainingController::validationReceived);
  panel.start();
  QVERIFY(validated.wait(60000));
  panel.stopAction()->trigger();
  QVERIFY(ended.wait(60000));
  const QString banner = panel.banner()->text();
  QVERIFY2(banner.contains(QStringLiteral("from the Runs table. Best validation")),
           qPrintable(banner));
}

// A run ended by its time budget (or early stopping, or a solved problem) says so where the
// researcher looks; it read "finished: N steps" as if it had run its length.
void RunEndBannerTest::aRunThatEndsEarlySaysWhy() {
  TrainingTestProject::Options options;
  options.maxSteps = 1000000;
  options.maxSeconds = 0.5;
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  QVERIFY(on.trainToEnd());
  const QString banner = panel.banner()->text();
  QCOMPARE(panel.banner()->kind(), RunBanner::Kind::Success);
  QVERIFY2(banner.contains(QStringLiteral("It ended early: its time budget")), qPrintable(banner));
}

// A Hessian-free run whose λ ran away ended without learning anything: its banner said
// "finished" in the colours of a success.
void RunEndBannerTest::aRunWhoseOptimiserStalledIsNotShownAsASuccess() {
  TrainingTestProject::Options options;
  options.maxSteps = 200;
  options.validateEvery = 100;
  options.checkpointEvery = 0;
  // λ 10¹² makes every step about g/10¹², too small to change a float weight: ρ raises λ at
  // each step, and the run ends at the 40th.
  options.optimizer = QStringLiteral(
      "{type: hessian_free, lambda: 1e12, cg_max_iterations: 3, gradient_windows: 1}");
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  QVERIFY(on.trainToEnd());
  const QString banner = panel.banner()->text();
  QCOMPARE(panel.banner()->kind(), RunBanner::Kind::Information);
  QVERIFY2(banner.contains(QStringLiteral("stalled: 40 steps")), qPrintable(banner));
  QVERIFY2(banner.contains(QStringLiteral("It ended early: Hessian-free's damping λ rose")),
           qPrintable(banner));
}

void RunEndBannerTest::aFailuresDetailIsBehindALink() {
  RunBanner banner;
  banner.showMessage(RunBanner::Kind::Failure, QStringLiteral("Run 1 failed"),
                     QStringLiteral("checkpoint 'x.pt' cannot be read: it is cut short.\n"
                                    "expected 1,204 bytes of tensor data, found 96\n"
                                    "while reading parameter layers.0.w_x"));
  QVERIFY(banner.hasDetails());
  QVERIFY2(banner.shownText().contains(QStringLiteral("cut short.")) &&
               !banner.shownText().contains(QStringLiteral("layers.0.w_x")) &&
               banner.shownText().contains(QStringLiteral("Details")),
           qPrintable(banner.shownText()));
  banner.showDetails();
  auto* box = banner.findChild<QMessageBox*>(QStringLiteral("runBannerDetails"));
  QVERIFY(box != nullptr);
  QVERIFY(box->informativeText().contains(QStringLiteral("layers.0.w_x")));
  box->close();
  // One sentence: nothing behind a link.
  banner.showMessage(RunBanner::Kind::Failure, QStringLiteral("Training did not start"),
                     QStringLiteral("Save the project first"));
  QVERIFY(!banner.hasDetails());
  QVERIFY(!banner.shownText().contains(QStringLiteral("Details")));
}

QTEST_MAIN(RunEndBannerTest)
#include "test_run_end_banner.moc"
