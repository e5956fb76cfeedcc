#include <qcustomplot.h>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include <QStandardItemModel>
#include <QUndoStack>
#include "engine/config/project_file.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_lock.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "panel_on_project.h"
#include "training_test_project.h"
#include "widgets/elided_label.h"
#include "widgets/export/export_bar.h"
#include "widgets/project/project_document.h"

#include "engine/devices/gpu_inventory.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/device_choice_box.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/run_store_watcher.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"

using mrnn::widgets::ConfigDiffDialog;
using mrnn::widgets::DeviceChoiceBox;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunBanner;
using mrnn::widgets::RunStoreWatcher;
using mrnn::widgets::TrainingCharts;
using mrnn::widgets::TrainingController;
using mrnn::widgets::TrainingMonitorPanel;
using mrnn::widgets::test::keysOf;
using mrnn::widgets::test::TrainingTestProject;
using mrnn::widgets::test::valuesOf;
using Series = TrainingCharts::Series;

using mrnn::widgets::test::PanelOnProject;

class TrainingMonitorPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void actionsHaveTheirShortcuts();
  void runPlotsEveryStepAndEndsWithANotice();
  void aStopBeforeTheRunBeginsSaysSo();
  void xAxisEpochAndTimeUseTheEventsValues();
  void perplexityAndLogScale();
  void overlaysDrawStoredRuns();
  void aProjectWithRunsOpensWithTheirCurves();
  void replotsAreCoalesced();
  void aLongRunNameDoesNotWidenThePanel();
  void untitledProjectAsksForASave();
  void invalidModelIsRefusedWithTheComposersReason();
  void followsARunAnotherProcessWrites();
  void aDeletedSelectionGivesWayToTheRunTraining();
  void openingAnotherProjectClearsTheLastOnesPicture();
  void anotherProjectsRunNeverNamesThisOnesRun();
  void theSettingsPaneIsAsWideAsItsFormForHessianFree();
  void aHessianFreeProjectsChartsShowLambdaBeforeItsFirstStep();
  void aSquaredErrorIsShownAsItself();
  void aResumeNoteOpensTheSettingsSideBySide();
  void everyControlIsReachableInANarrowPanel();
  void deviceChoiceListsTheCpuAndSaysWhyNoGpu();
  void choosingADeviceIsOneUndoableEdit();
  void renderScreenshot();

 private:
  // One finished 30-step run shared by the tests that only read it.
  std::unique_ptr<TrainingTestProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<TrainingMonitorPanel> panel_;
  QList<mrnn::engine::StepEvent> steps_;
  QList<mrnn::engine::ValidationEvent> validations_;
};

void TrainingMonitorPanelTest::initTestCase() {
  project_ = std::make_unique<TrainingTestProject>();
  document_ = std::make_unique<ProjectDocument>();
  QCOMPARE(project_->loadInto(*document_), QString());
  panel_ = std::make_unique<TrainingMonitorPanel>(*document_);
  panel_->resize(1100, 700);
  panel_->show();
  connect(panel_->controller(), &TrainingController::stepReceived, this,
          [this](const mrnn::engine::StepEvent& event) { steps_.append(event); });
  connect(panel_->controller(), &TrainingController::validationReceived, this,
          [this](const mrnn::engine::ValidationEvent& event) { validations_.append(event); });
}

void TrainingMonitorPanelTest::actionsHaveTheirShortcuts() {
  QCOMPARE(panel_->startAction()->shortcut(), QKeySequence(Qt::Key_F5));
  QCOMPARE(panel_->pauseAction()->shortcut(), QKeySequence(Qt::Key_F6));
  QCOMPARE(panel_->stopAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
  QVERIFY(panel_->startAction()->isEnabled());
  QVERIFY(!panel_->pauseAction()->isEnabled());
  QVERIFY(!panel_->resumeAction()->isEnabled());
  QVERIFY(!panel_->stopAction()->isEnabled());
}

void TrainingMonitorPanelTest::runPlotsEveryStepAndEndsWithANotice() {
  QSignalSpy ended(panel_.get(), &TrainingMonitorPanel::runEnded);
  QSignalSpy status(panel_.get(), &TrainingMonitorPanel::statusMessage);
  bool pauseEnabledWhileRunning = false;
  QObject context;  // the connection ends with this test
  connect(panel_->controller(), &TrainingController::stepReceived, &context,
          [&] { pauseEnabledWhileRunning = panel_->pauseAction()->isEnabled(); });
  panel_->startAction()->trigger();
  QVERIFY(panel_->controller()->isRunning());
  QVERIFY(!panel_->startAction()->isEnabled());
  // Until its first step the charts say the run is starting (they once said "press Start").
  QVERIFY2(panel_->charts()->placeholderText().contains(QStringLiteral("is starting")),
           qPrintable(panel_->charts()->placeholderText()));
  QVERIFY(ended.wait(60000));
  QCOMPARE(panel_->charts()->placeholderText(), QString());  // the curves are there
  QVERIFY(pauseEnabledWhileRunning);
  QCOMPARE(ended.at(0).at(0).toBool(), true);
  QVERIFY(panel_->startAction()->isEnabled());

  // A point per step received, at the step, in bits per symbol; the smoothed curve alongside.
  QCOMPARE(steps_.size(), 30);
  const QCPGraph* raw = panel_->charts()->liveGraph(Series::LossRaw);
  QCOMPARE(raw->dataCount(), steps_.size());
  QCOMPARE(panel_->charts()->liveGraph(Series::LossSmoothed)->dataCount(), steps_.size());
  QCOMPARE(panel_->charts()->liveGraph(Series::LearningRate)->dataCount(), steps_.size());
  QCOMPARE(panel_->charts()->liveGraph(Series::GradientNorm)->dataCount(), steps_.size());
  QCOMPARE(panel_->charts()->liveGraph(Series::Throughput)->dataCount(), steps_.size());
  const QVector<double> keys = keysOf(raw);
  const QVector<double> values = valuesOf(raw);
  for (int i = 0; i < steps_.size(); ++i) {
    QCOMPARE(keys[i], static_cast<double>(steps_[i].step));
    QCOMPARE(values[i], steps_[i].loss / std::log(2.0));
  }
  // The first smoothed point is the first raw point (the EMA's start-up bias removed).
  QCOMPARE(valuesOf(panel_->charts()->liveGraph(Series::LossSmoothed)).first(), values.first());
  QCOMPARE(validations_.size(), 3);
  QCOMPARE(panel_->charts()->liveGraph(Series::Validation)->dataCount(), 3);
  QCOMPARE(valuesOf(panel_->charts()->liveGraph(Series::Validation)).last(),
           validations_.last().figures.bitsPerSymbol);

  // The notice names the run and its result; the log has the engine's messages.
  QVERIFY(panel_->banner()->isVisible());
  QCOMPARE(panel_->banner()->kind(), RunBanner::Kind::Success);
  const qint64 runId = panel_->controller()->runId();
  QVERIFY(runId > 0);
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("Run %1 finished").arg(runId)),
           qPrintable(panel_->banner()->text()));
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("Best validation")),
           qPrintable(panel_->banner()->text()));
  QVERIFY(ended.at(0).at(1).toString().contains(QStringLiteral("finished")));
  QVERIFY(panel_->logText().contains(QStringLiteral("validation at step 30")));
  QVERIFY(!status.isEmpty());
  QCOMPARE(panel_->findChild<QLabel*>(QStringLiteral("stepValue"))->text(), QStringLiteral("30"));
}

// The defect: a stop pressed while the corpus was still being read logged "the run ends after
// this step, with a checkpoint", of a run that had taken no step and would save nothing.
void TrainingMonitorPanelTest::aStopBeforeTheRunBeginsSaysSo() {
  TrainingTestProject project;  // its own: the shared run stays as the other tests read it
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingMonitorPanel monitor(document);
  QSignalSpy ended(&monitor, &TrainingMonitorPanel::runEnded);
  monitor.startAction()->trigger();
  QVERIFY(monitor.controller()->isRunning());
  monitor.stopAction()->trigger();  // no event has reached the window yet
  QVERIFY2(monitor.logText().contains(QStringLiteral("stop requested before the first step")) &&
               !monitor.logText().contains(QStringLiteral("after this step")),
           qPrintable(monitor.logText()));
  QVERIFY(ended.wait(60000));
}

void TrainingMonitorPanelTest::xAxisEpochAndTimeUseTheEventsValues() {
  QCOMPARE(steps_.size(), 30);
  auto* combo = panel_->findChild<QComboBox*>(QStringLiteral("xAxisCombo"));
  QVERIFY(combo);
  combo->setCurrentIndex(1);  // Epoch
  QCOMPARE(panel_->charts()->xAxis(), TrainingCharts::XAxis::Epoch);
  QVector<double> keys = keysOf(panel_->charts()->liveGraph(Series::LossRaw));
  QCOMPARE(keys.size(), steps_.size());
  for (int i = 0; i < steps_.size(); ++i) QCOMPARE(keys[i], steps_[i].epoch);
  QVERIFY(steps_.last().epoch > steps_.first().epoch);
  const QVector<double> validKeys = keysOf(panel_->charts()->liveGraph(Series::Validation));
  for (int i = 0; i < validations_.size(); ++i) QCOMPARE(validKeys[i], validations_[i].epoch);
  QCOMPARE(panel_->charts()->plot(TrainingCharts::Chart::Loss)->xAxis->label(),
           QStringLiteral("epoch"));

  combo->setCurrentIndex(2);  // training time
  keys = keysOf(panel_->charts()->liveGraph(Series::GradientNorm));
  for (int i = 0; i < steps_.size(); ++i) QCOMPARE(keys[i], steps_[i].wallSeconds);
  combo->setCurrentIndex(0);
  keys = keysOf(panel_->charts()->liveGraph(Series::LossRaw));
  QCOMPARE(keys.last(), 30.0);
}

void TrainingMonitorPanelTest::perplexityAndLogScale() {
  auto* unit = panel_->findChild<QComboBox*>(QStringLiteral("unitCombo"));
  unit->setCurrentIndex(1);  // perplexity
  const QVector<double> values = valuesOf(panel_->charts()->liveGraph(Series::LossRaw));
  QCOMPARE(values.first(), std::exp(steps_.first().loss));
  QCOMPARE(valuesOf(panel_->charts()->liveGraph(Series::Validation)).first(),
           validations_.first().figures.perplexity);
  unit->setCurrentIndex(0);

  auto* log = panel_->findChild<QCheckBox*>(QStringLiteral("logScaleCheck"));
  log->setChecked(true);
  for (auto chart : {TrainingCharts::Chart::Loss, TrainingCharts::Chart::LearningRate}) {
    QCOMPARE(panel_->charts()->plot(chart)->yAxis->scaleType(), QCPAxis::stLogarithmic);
  }
  log->setChecked(false);
  QCOMPARE(panel_->charts()->plot(TrainingCharts::Chart::Loss)->yAxis->scaleType(),
           QCPAxis::stLinear);
}

void TrainingMonitorPanelTest::overlaysDrawStoredRuns() {
  const qint64 runId = panel_->controller()->runId();
  // A fresh monitor of the same project draws the finished run from the database.
  TrainingMonitorPanel other(*document_);
  QSignalSpy loaded(&other, &TrainingMonitorPanel::overlaysLoaded);
  other.setOverlayRuns({runId, 999});  // 999 does not exist: left out
  QVERIFY(loaded.wait(10000));
  QCOMPARE(loaded.at(0).at(0).toInt(), 1);
  QCOMPARE(other.charts()->overlayCount(), 1);
  // The store's series: 30 training points, 3 validations, the values the live run drew.
  QCOMPARE(other.charts()->overlayGraph(0, Series::LossRaw)->dataCount(), 30);
  QCOMPARE(other.charts()->overlayGraph(0, Series::Validation)->dataCount(), 3);
  QCOMPARE(valuesOf(other.charts()->overlayGraph(0, Series::LossRaw)),
           valuesOf(panel_->charts()->liveGraph(Series::LossRaw)));
  QCOMPARE(keysOf(other.charts()->overlayGraph(0, Series::LearningRate)),
           keysOf(panel_->charts()->liveGraph(Series::LearningRate)));
  other.setOverlayRuns({});
  QCOMPARE(other.charts()->overlayCount(), 0);

  // The monitor that trained it shows it live already: not a second time.
  QSignalSpy own(panel_.get(), &TrainingMonitorPanel::overlaysLoaded);
  panel_->setOverlayRuns({runId});
  QVERIFY(own.count() == 1 || own.wait(10000));
  QCOMPARE(own.at(0).at(0).toInt(), 0);
  QCOMPARE(panel_->charts()->overlayCount(), 0);
}

void TrainingMonitorPanelTest::aProjectWithRunsOpensWithTheirCurves() {
  // Opening the trained project: its run is drawn, not "No training data yet".
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  QCOMPARE(project_->loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  QCOMPARE(loaded.last().at(0).toInt(), 1);
  QCOMPARE(monitor.charts()->overlayCount(), 1);
  QCOMPARE(monitor.charts()->overlayGraph(0, Series::LossRaw)->dataCount(), 30);
  // The legend names the run shown, with no empty entry for a live run that has not begun.
  auto* loss = monitor.charts()->findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
  QCOMPARE(loss->legend->itemCount(), 1);
  QCOMPARE(loss->locale().groupSeparator(), QStringLiteral(","));
}

void TrainingMonitorPanelTest::replotsAreCoalesced() {
  TrainingTestProject::Options options;
  options.maxSteps = 300;
  options.validateEvery = 100;
  TrainingTestProject project(options);
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingMonitorPanel panel(document);
  panel.resize(1100, 700);
  panel.show();
  int replots = 0;
  connect(panel.charts()->plot(TrainingCharts::Chart::Loss), &QCustomPlot::afterReplot, this,
          [&] { ++replots; });
  QSignalSpy ended(&panel, &TrainingMonitorPanel::runEnded);
  QElapsedTimer clock;
  clock.start();
  panel.start();
  QVERIFY(ended.wait(120000));
  const qint64 elapsed = clock.elapsed();
  QCOMPARE(panel.controller()->stepsReceived(), 300);
  qInfo("%lld ms, %d replots for 300 steps", elapsed, replots);
  // At most one replot per 200 ms, plus the few a start, an end and a fit add, and one where
  // a chart's new layout (the legend's first entry) changes its labels.
  QVERIFY2(replots <= elapsed / TrainingMonitorPanel::kReplotIntervalMs + 5,
           qPrintable(QStringLiteral("%1 replots in %2 ms").arg(replots).arg(elapsed)));
  QVERIFY(replots < 300);
  QCOMPARE(panel.charts()->liveGraph(Series::LossRaw)->dataCount(), 300);
}

// Runs are named after their project, and projects after papers' tables: the run's name in
// the stats strip is cut to fit (whole in its tooltip) rather than setting the panel's least
// width, which at 1280 pixels scrolled the whole dock sideways.
void TrainingMonitorPanelTest::aLongRunNameDoesNotWidenThePanel() {
  TrainingTestProject::Options options;
  options.maxSteps = 2;
  options.name = QStringLiteral(
      "Maupome & Meurs Table 1 (PTB characters), the mLSTM base of the "
      "cell comparison at 355,350 parameters, seed 1 of 5");
  PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto& [project, document, loaded, panel, ended] = on;
  panel.resize(900, 600);
  QVERIFY(on.trainToEnd());
  auto* run = panel.findChild<mrnn::widgets::ElidedLabel*>(QStringLiteral("runValue"));
  QVERIFY(run != nullptr);
  // The label shows the name the run records (its cells and size), and elides a long one.
  QVERIFY2(run->toolTip().contains(QStringLiteral("run 1 · lstm 16")), qPrintable(run->toolTip()));
  // Measured with the run's figures in the strip (its throughput, best validation and time
  // are wider than their captions), so that only the name differs below.
  const int before = panel.minimumSizeHint().width();
  run->setFullText(QStringLiteral("run 1 · ") + options.name);
  QVERIFY2(run->toolTip().contains(options.name), qPrintable(run->toolTip()));
  QVERIFY2(panel.minimumSizeHint().width() <= before,
           qPrintable(QStringLiteral("%1 wide with the run named, %2 before")
                          .arg(panel.minimumSizeHint().width())
                          .arg(before)));
}

void TrainingMonitorPanelTest::untitledProjectAsksForASave() {
  ProjectDocument document;
  TrainingMonitorPanel panel(document);
  panel.show();
  QSignalSpy save(&panel, &TrainingMonitorPanel::saveRequested);
  QSignalSpy ended(&panel, &TrainingMonitorPanel::runEnded);
  // F5 is Start (Resume shares it, but is disabled while idle: no ambiguity).
  panel.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&panel));
  QTest::keyClick(&panel, Qt::Key_F5);
  QCOMPARE(save.count(), 1);
  QVERIFY(!panel.controller()->isRunning());
  QVERIFY(panel.banner()->isVisible());
  QVERIFY(panel.banner()->text().contains(
      QStringLiteral("Save the project first: runs are stored beside it")));
  QCOMPARE(ended.count(), 0);
}

void TrainingMonitorPanelTest::invalidModelIsRefusedWithTheComposersReason() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingMonitorPanel panel(document);
  panel.show();
  QSignalSpy said(&panel, &TrainingMonitorPanel::statusMessage);
  panel.setStartEnabled(false, QStringLiteral("layer 1: hidden_size must be at least 1"));
  // A problem marked on a block disables Start, as the docs say; the status line says why
  // (it said "Ready to train").
  QVERIFY(!panel.startAction()->isEnabled());
  QVERIFY(!said.isEmpty());
  QVERIFY2(said.last().at(0).toString().startsWith(QStringLiteral("Cannot train yet: layer 1")),
           qPrintable(said.last().at(0).toString()));
  panel.start();
  QVERIFY(!panel.controller()->isRunning());
  QVERIFY(panel.banner()->text().contains(QStringLiteral("hidden_size must be at least 1")));
  QVERIFY(panel.startAction()->toolTip().contains(QStringLiteral("hidden_size")));
  QVERIFY(panel.banner()->isVisible());
  panel.setStartEnabled(true);
  QVERIFY(panel.startAction()->isEnabled());
  QVERIFY(!panel.startAction()->toolTip().contains(QStringLiteral("hidden_size")));
  QCOMPARE(said.last().at(0).toString(), QStringLiteral("Ready to train"));
  // The problem was undone: its refusal no longer stands.
  QVERIFY(!panel.banner()->isVisible());
}

void TrainingMonitorPanelTest::followsARunAnotherProcessWrites() {
  // A monitor showing the project's runs, and a run that another process (here: another
  // connection holding the run's lock, as `mrnn train` in a terminal does) starts and trains.
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  QCOMPARE(project_->loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  const int before = monitor.charts()->overlayCount();
  RunStoreWatcher watcher(opened, nullptr, 3'600'000);  // checked by hand below
  connect(&watcher, &RunStoreWatcher::runsChanged, &monitor, &TrainingMonitorPanel::followStore);
  QVERIFY(!watcher.checkNow());

  const std::string folder = opened.folder().toStdString();
  mrnn::engine::RunCatalogue catalogue(folder, mrnn::engine::RunCatalogue::Access::ReadWrite);
  mrnn::engine::RunRecord record;
  record.name = "from a terminal";
  record.modelType = "lstm";
  const int64_t id = catalogue.store().createRun(record);
  mrnn::engine::RunLock lock = catalogue.lockForWriting(id);
  const auto trainTo = [&](int from, int to) {
    std::vector<mrnn::engine::MetricPoint> points;
    for (int step = from; step <= to; ++step) {
      points.push_back({"train/loss", step, step / 100.0, step * 0.1, 2.0});
    }
    catalogue.store().appendMetrics(id, points);
  };
  trainTo(1, 5);
  loaded.clear();
  QVERIFY(watcher.checkNow());
  QVERIFY(loaded.wait(10000));
  QCOMPARE(monitor.charts()->overlayCount(), before + 1);
  QCOMPARE(monitor.charts()->overlayGraph(before, Series::LossRaw)->dataCount(), 5);
  // It plots as it trains.
  trainTo(6, 12);
  loaded.clear();
  QVERIFY(watcher.checkNow());
  QVERIFY(loaded.wait(10000));
  QCOMPARE(monitor.charts()->overlayGraph(before, Series::LossRaw)->dataCount(), 12);
  QVERIFY(!watcher.checkNow());  // nothing new
  lock.release();
  catalogue.deleteRun(id);
}

void TrainingMonitorPanelTest::aDeletedSelectionGivesWayToTheRunTraining() {
  // A run picked in the Runs panel, and a trial another process trains meanwhile.
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  QCOMPARE(project_->loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  const std::string folder = opened.folder().toStdString();
  mrnn::engine::RunCatalogue catalogue(folder, mrnn::engine::RunCatalogue::Access::ReadWrite);
  const auto runWithLoss = [&](const char* name) {
    mrnn::engine::RunRecord record;
    record.name = name;
    record.modelType = "lstm";
    const int64_t id = catalogue.store().createRun(record);
    catalogue.store().appendMetrics(
        id, {{"train/loss", 1, 0.01, 0.1, 2.0}, {"train/loss", 2, 0.02, 0.2, 1.9}});
    return id;
  };
  const int64_t picked = runWithLoss("picked");
  loaded.clear();
  monitor.setOverlayRuns({picked});
  QVERIFY(loaded.wait(10000));
  QCOMPARE(monitor.charts()->overlayCount(), 1);
  const int64_t trial = runWithLoss("trial");
  mrnn::engine::RunLock lock = catalogue.lockForWriting(trial);
  RunStoreWatcher watcher(opened, nullptr, 3'600'000);  // checked by hand below
  connect(&watcher, &RunStoreWatcher::runsChanged, &monitor, &TrainingMonitorPanel::followStore);

  catalogue.deleteRun(picked);
  loaded.clear();
  QVERIFY(watcher.checkNow());
  QVERIFY(loaded.wait(10000));
  // Not an empty monitor: the project's runs, the trial training now among them.
  QVERIFY(!monitor.overlayRuns().contains(picked));
  QVERIFY(monitor.overlayRuns().contains(trial));
  QVERIFY(monitor.charts()->hasData());
  lock.release();
  catalogue.deleteRun(trial);
}

void TrainingMonitorPanelTest::openingAnotherProjectClearsTheLastOnesPicture() {
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  monitor.resize(1100, 700);
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  QCOMPARE(project_->loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  monitor.charts()->replot();
  const QCPRange trainedRange = monitor.charts()->plot(TrainingCharts::Chart::Loss)->xAxis->range();
  // This project's failure stays with it.
  Q_EMIT monitor.controller()->failed(QStringLiteral("the corpus is empty"));
  QVERIFY(!monitor.banner()->isHidden());
  QVERIFY(monitor.logText().contains(QStringLiteral("the corpus is empty")));

  TrainingTestProject other;
  loaded.clear();
  QCOMPARE(other.loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  QVERIFY(monitor.banner()->isHidden());
  QCOMPARE(monitor.logText(), QString());
  QCOMPARE(monitor.charts()->overlayCount(), 0);
  QVERIFY(!monitor.charts()->hasData());
  const QCPRange empty = monitor.charts()->plot(TrainingCharts::Chart::Loss)->xAxis->range();
  QVERIFY2(empty != trainedRange && empty.upper <= 1.0,
           qPrintable(QStringLiteral("%1..%2").arg(empty.lower).arg(empty.upper)));
}

// Run ids are a project's own: after run 1 of one project trained here, the other project's
// run 1 (an imported model) was resumed and read out as "run 1 · <the first project's run>",
// and the failed run's name and 0% stayed in the figures. A run is named as its project names
// it, and a run that never stepped leaves the figures at "-".
void TrainingMonitorPanelTest::anotherProjectsRunNeverNamesThisOnesRun() {
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  QSignalSpy loaded(&monitor, &TrainingMonitorPanel::overlaysLoaded);
  QCOMPARE(project_->loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  {
    mrnn::engine::RunStore store(
        mrnn::engine::RunPaths::database(project_->folder().toStdString()));
    if (!store.run(1)) {
      mrnn::engine::RunRecord run;
      run.name = "first project's run";
      store.createRun(run);
    }
  }
  Q_EMIT monitor.controller()->runIdentified(1);
  const QString first = monitor.runReadout();
  QVERIFY2(first.startsWith(QStringLiteral("run 1 · ")), qPrintable(first));

  TrainingTestProject other;
  {
    mrnn::engine::RunStore store(mrnn::engine::RunPaths::database(other.folder().toStdString()));
    mrnn::engine::RunRecord run;
    run.name = "imported lstm";
    QCOMPARE(store.createRun(run), int64_t{1});
    store.setStatus(1, mrnn::engine::RunStatus::Finished, "imported from /models/lm.pt");
  }
  loaded.clear();
  QCOMPARE(other.loadInto(opened), QString());
  QVERIFY(loaded.count() > 0 || loaded.wait(10000));
  QCOMPARE(monitor.runReadout(), QStringLiteral("-"));

  // Its "checkpoint" is no checkpoint: the run fails before a step.
  const QString bogus = other.folder() + QStringLiteral("/bogus.pt");
  QFile file(bogus);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("not a checkpoint");
  file.close();
  QSignalSpy failed(monitor.controller(), &TrainingController::failed);
  monitor.startFromCheckpoint(1, bogus);
  QCOMPARE(monitor.runReadout(), QStringLiteral("run 1 · imported lstm"));
  QVERIFY(failed.count() > 0 || failed.wait(20000));
  QCOMPARE(monitor.runReadout(), QStringLiteral("-"));
  QVERIFY2(!monitor.banner()->text().contains(first.mid(8)), qPrintable(monitor.banner()->text()));
}

// Switched to Hessian-free, the settings form grows (its keys, its note): the pane once kept
// the width of the Adam form it was built with, and cut the fields' right edges at 1280 px.
void TrainingMonitorPanelTest::theSettingsPaneIsAsWideAsItsFormForHessianFree() {
  TrainingMonitorPanel panel(*document_);
  panel.resize(1280, 600);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  panel.optimizerAction()->setChecked(true);
  auto* pane = panel.findChild<QScrollArea*>(QStringLiteral("optimizerPane"));
  QVERIFY(pane && pane->widget());
  mrnn::engine::Project hf = document_->project();
  hf.training.optimizer.kind = mrnn::engine::OptimizerKind::HessianFree;
  hf.training.schedule.kind = mrnn::engine::ScheduleKind::Constant;
  document_->edit(hf, QStringLiteral("Hessian-free"));
  QTRY_VERIFY2(pane->viewport()->width() >= pane->widget()->minimumSizeHint().width(),
               qPrintable(QStringLiteral("viewport %1, form %2")
                              .arg(pane->viewport()->width())
                              .arg(pane->widget()->minimumSizeHint().width())));
  document_->undoStack()->undo();
}

// Before a Hessian-free project's first run, the rate chart already says λ and the CG chart
// stands beside it: the layout does not jump at the first step, nor promise a learning rate.
void TrainingMonitorPanelTest::aHessianFreeProjectsChartsShowLambdaBeforeItsFirstStep() {
  TrainingTestProject::Options options;
  options.optimizer = QStringLiteral("{type: hessian_free, gradient_windows: 1}");
  mrnn::widgets::test::PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  TrainingCharts* charts = on.panel.charts();
  QVERIFY(!charts->hasData());
  const auto rateTitle = [charts] {
    auto* title = qobject_cast<QCPTextElement*>(
        charts->plot(TrainingCharts::Chart::LearningRate)->plotLayout()->element(0, 0));
    return title ? title->text() : QString();
  };
  QCOMPARE(rateTitle(), QStringLiteral("Hessian-free λ (damping)"));
  QVERIFY(!charts->plot(TrainingCharts::Chart::CgIterations)->isHidden());
  // Switched to Adam, the project's next run has a learning rate and no CG.
  mrnn::engine::Project adam = on.document.project();
  adam.training.optimizer.kind = mrnn::engine::OptimizerKind::Adam;
  on.document.edit(adam, QStringLiteral("Adam"));
  QCOMPARE(rateTitle(), QStringLiteral("Learning rate"));
  QVERIFY(charts->plot(TrainingCharts::Chart::CgIterations)->isHidden());
}

// A real-valued output (the addition problem) is trained on squared error: the charts, the
// figures, the messages and the banner give it as that, never as bits or a perplexity.
void TrainingMonitorPanelTest::aSquaredErrorIsShownAsItself() {
  TrainingTestProject::Options options;
  options.additionProblem = true;
  options.maxSteps = 4;
  options.validateEvery = 2;
  mrnn::widgets::test::PanelOnProject on(options);
  QCOMPARE(on.loaded, QString());
  auto* unit = on.panel.findChild<QComboBox*>(QStringLiteral("unitCombo"));
  QVERIFY(unit);
  QCOMPARE(unit->count(), 1);
  QCOMPARE(unit->currentText(), QStringLiteral("squared error"));
  QVERIFY(!unit->isEnabled());
  TrainingCharts* charts = on.panel.charts();
  QCOMPARE(charts->plot(TrainingCharts::Chart::Validation)->yAxis->label(),
           QStringLiteral("squared error"));
  QList<mrnn::engine::ValidationEvent> validations;
  connect(on.panel.controller(), &TrainingController::validationReceived, this,
          [&validations](const mrnn::engine::ValidationEvent& e) { validations.append(e); });
  QVERIFY(on.trainToEnd());
  QCOMPARE(validations.size(), 2);
  QVERIFY(validations.last().figures.squaredError);
  // The chart draws the squared error itself.
  const QVector<double> drawn =
      mrnn::widgets::test::valuesOf(charts->liveGraph(TrainingCharts::Series::Validation));
  QCOMPARE(drawn.size(), 2);
  QCOMPARE(drawn.last(), validations.last().figures.nats);
  const QString log = on.panel.logText();
  QVERIFY2(log.contains(QStringLiteral("validation at step 2: mean squared error ")),
           qPrintable(log));
  QVERIFY2(
      !log.contains(QStringLiteral("bits/symbol")) && !log.contains(QStringLiteral("perplexity")),
      qPrintable(log));
  QVERIFY2(on.panel.banner()->text().contains(QStringLiteral("validation mean squared error")),
           qPrintable(on.panel.banner()->text()));
  // Back to a corpus: the box offers bits and perplexity again.
  TrainingTestProject corpus;
  QCOMPARE(corpus.loadInto(on.document), QString());
  QCOMPARE(unit->count(), 2);
  QVERIFY(unit->isEnabled());
  QCOMPARE(unit->currentText(), QStringLiteral("bits/symbol"));
  // A generated problem at word level is read in bits too, not in a perplexity near 1.
  QTemporaryDir problem;
  const QString file = problem.filePath(QStringLiteral("project.yaml"));
  QFile out(file);
  QVERIFY(out.open(QIODevice::WriteOnly));
  out.write(
      "name: order\nmodel:\n  input: {level: word, embedding_size: 0}\n"
      "  layers: [{type: rnn, hidden_size: 8}]\n"
      "data:\n  synthetic: temporal_order_2bit\n"
      "  problem: {length: 20, train: 100, valid: 10, test: 10}\n"
      "training: {max_steps: 2}\n");
  out.close();
  on.document.load(file);
  QCOMPARE(unit->count(), 2);
  QCOMPARE(unit->currentText(), QStringLiteral("bits/symbol"));
}

// A resume keeps the run's own settings where the project now says others: its note offers
// the two side by side (the run's stored settings, the project's now).
void TrainingMonitorPanelTest::aResumeNoteOpensTheSettingsSideBySide() {
  ProjectDocument opened;
  TrainingMonitorPanel monitor(opened);
  QCOMPARE(project_->loadInto(opened), QString());
  qint64 runId = 0;
  {
    mrnn::engine::Project earlier = opened.project();
    earlier.training.batchSize = 3;
    mrnn::engine::RunStore store(
        mrnn::engine::RunPaths::database(project_->folder().toStdString()));
    mrnn::engine::RunRecord run;
    run.name = "earlier";
    run.configYaml = mrnn::engine::projectToYaml(earlier);
    runId = store.createRun(run);
  }
  Q_EMIT monitor.controller()->runIdentified(runId);
  Q_EMIT monitor.controller()->noteReceived(
      QStringLiteral("note: run %1 continues with the settings it started with, though the "
                     "project now sets batch_size 4 (the run's: 3); a new run trains with them")
          .arg(runId));
  QVERIFY(monitor.banner()->hasAction());
  QVERIFY(monitor.banner()->shownText().contains(QStringLiteral("Compare its settings")));
  monitor.banner()->triggerAction();
  auto* dialog = monitor.findChild<ConfigDiffDialog*>(QStringLiteral("resumeSettingsDiff"));
  QVERIFY(dialog != nullptr);
  QVERIFY(dialog->removedCount() > 0 && dialog->addedCount() > 0);
  QVERIFY2(dialog->view()->toPlainText().contains(QStringLiteral("batch_size: 3")),
           qPrintable(dialog->view()->toPlainText()));
  // Another message drops the link: it belonged to that note.
  Q_EMIT monitor.controller()->failed(QStringLiteral("the corpus is empty"));
  QVERIFY(!monitor.banner()->hasAction());
}

void TrainingMonitorPanelTest::everyControlIsReachableInANarrowPanel() {
  // The monitor's dock in a 1280-pixel window with the composer beside it, and a wide one.
  for (const int width : {860, 1900}) {
    TrainingMonitorPanel panel(*document_);
    panel.resize(width, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(width < 1000 ? panel.toolBarRows() > 1 : panel.toolBarRows() == 1,
             qPrintable(QString::number(panel.toolBarRows())));
    for (QWidget* control : {static_cast<QWidget*>(panel.exportBar()->figureButton()),
                             static_cast<QWidget*>(panel.exportBar()->csvButton()),
                             static_cast<QWidget*>(panel.deviceChoiceBox())}) {
      QVERIFY2(control->isVisible(), qPrintable(QStringLiteral("hidden at %1 px").arg(width)));
      const QRect inPanel(control->mapTo(&panel, QPoint(0, 0)), control->size());
      QVERIFY2(panel.rect().contains(inPanel),
               qPrintable(QStringLiteral("cut off at %1 px").arg(width)));
    }
  }
}

void TrainingMonitorPanelTest::deviceChoiceListsTheCpuAndSaysWhyNoGpu() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  TrainingMonitorPanel panel(document);
  DeviceChoiceBox* box = panel.deviceChoiceBox();
  QVERIFY(box);
  QCOMPARE(box->device(), QStringLiteral("cpu"));
  QCOMPARE(box->itemText(0), QStringLiteral("CPU"));
  const auto devices = mrnn::engine::listComputeDevices();
  auto* items = qobject_cast<QStandardItemModel*>(box->model());
  QVERIFY(items);
  if (devices.gpus.empty()) {
    // One greyed entry that says why, in the list and its tooltip.
    QCOMPARE(box->count(), 2);
    QVERIFY(!items->item(1)->isEnabled());
    const QString reason = QString::fromStdString(devices.unavailableReason);
    QVERIFY(!reason.isEmpty());
    QVERIFY2(box->itemText(1).contains(reason), qPrintable(box->itemText(1)));
    QVERIFY(box->toolTip().contains(reason));
    QCOMPARE(box->unavailableReason(), reason);
  } else {
    QCOMPARE(box->count(), 1 + static_cast<int>(devices.gpus.size()));
    for (int i = 1; i < box->count(); ++i) QVERIFY(items->item(i)->isEnabled());
    QCOMPARE(box->itemData(1).toString(), QStringLiteral("cuda:0"));
  }
}

void TrainingMonitorPanelTest::choosingADeviceIsOneUndoableEdit() {
  TrainingTestProject project;
  ProjectDocument document;
  QCOMPARE(project.loadInto(document), QString());
  // A project from a machine with four GPUs, training in bf16 on the fourth.
  auto fromElsewhere = document.project();
  fromElsewhere.training.device = "cuda:3";
  fromElsewhere.training.bf16 = true;
  document.edit(fromElsewhere, QStringLiteral("From elsewhere"));
  TrainingMonitorPanel panel(document);
  DeviceChoiceBox* box = panel.deviceChoiceBox();
  const int listed = static_cast<int>(mrnn::engine::listComputeDevices().gpus.size());
  if (listed < 4) {
    // Shown as it is, marked, not silently replaced by the CPU.
    QCOMPARE(box->device(), QStringLiteral("cuda:3"));
    QVERIFY2(box->currentText().contains(QStringLiteral("not on this machine")),
             qPrintable(box->currentText()));
  }
  QSignalSpy chosen(box, &DeviceChoiceBox::deviceChosen);
  const int undoBefore = document.undoStack()->count();
  emit box->activated(0);  // the user picks "CPU"
  QVERIFY(chosen.count() >= 1);
  QCOMPARE(document.project().training.device, std::string("cpu"));
  QVERIFY(!document.project().training.bf16);  // a GPU setting; the file must load again
  QCOMPARE(box->device(), QStringLiteral("cpu"));
  QCOMPARE(box->count(), listed == 0 ? 2 : 1 + listed);  // the marked entry went
  QCOMPARE(document.undoStack()->count(), undoBefore + 1);
  document.undoStack()->undo();
  QCOMPARE(document.project().training.device, std::string("cuda:3"));
  QVERIFY(document.project().training.bf16);
  QCOMPARE(box->device(), QStringLiteral("cuda:3"));
}

void TrainingMonitorPanelTest::renderScreenshot() {
  // For a look at the panel: MRNN_SCREENSHOT_DIR=<folder> saves the finished run's monitor.
  const QString folder = qEnvironmentVariable("MRNN_SCREENSHOT_DIR");
  if (folder.isEmpty()) QSKIP("set MRNN_SCREENSHOT_DIR to save a screenshot");
  panel_->setOverlayRuns({});
  QTest::qWait(200);
  QVERIFY(panel_->grab().save(folder + QStringLiteral("/training_monitor_test.png")));
}

QTEST_MAIN(TrainingMonitorPanelTest)
#include "test_training_monitor_panel.moc"
