#include "widgets/training/training_monitor_panel.h"
#include "widgets/native_path.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <memory>

#include "engine/analysis/analysis_job.h"
#include "engine/config/device_name.h"
#include "engine/config/model_names.h"
#include "engine/config/project_file.h"
#include "engine/data/long_range_problem.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/held_out_note.h"
#include "widgets/display_format.h"
#include "widgets/elided_label.h"
#include "widgets/export/export_bar.h"
#include "widgets/monospace_font.h"
#include "widgets/project/project_document.h"
#include "widgets/scroll_width_follower.h"
#include "widgets/tool_bar_rows.h"
#include "widgets/training/background_job.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/device_choice_box.h"
#include "widgets/training/hessian_free_step_view.h"
#include "widgets/training/optimizer_editor.h"
#include "widgets/training/process_count_box.h"
#include "widgets/training/rank_throughput_view.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/run_curves.h"
#include "widgets/training/run_settings_editor.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_controller.h"

namespace mrnn::widgets {
namespace {

// The GPUs this LibTorch sees, asked once and only for a CUDA project (asking starts CUDA).
int gpusSeenOnce() {
  static const int gpus = TrainingController::visibleGpus();
  return gpus;
}

}  // namespace

TrainingMonitorPanel::TrainingMonitorPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("trainingMonitorPanel"));
  controller_ = new TrainingController(document_, this);
  charts_ = new TrainingCharts(this);
  charts_->setObjectName(QStringLiteral("trainingCharts"));
  banner_ = new RunBanner(this);
  replotTimer_ = new QTimer(this);
  replotTimer_->setSingleShot(true);
  replotTimer_->setInterval(kReplotIntervalMs);
  connect(replotTimer_, &QTimer::timeout, this, &TrainingMonitorPanel::refreshView);

  buildActions();
  log_ = new QPlainTextEdit(this);
  log_->setObjectName(QStringLiteral("trainingLog"));
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(20000);
  log_->setMinimumHeight(36);
  log_->setFont(monospaceFont());
  log_->setPlaceholderText(tr("The engine's messages appear here while a run trains."));
  log_->setToolTip(
      tr("Messages from the training engine: set-up, validations, checkpoints, "
         "the end of the run"));

  // The training settings beside the charts, shown by the tool bar's Settings button: the
  // run's length and shape, then the optimiser.
  runSettings_ = new RunSettingsEditor(document_, this);
  optimizer_ = new OptimizerEditor(document_, this);
  auto* forms = new QWidget(this);
  auto* formsLayout = new QVBoxLayout(forms);
  formsLayout->setContentsMargins(0, 0, 0, 0);
  formsLayout->addWidget(runSettings_);
  formsLayout->addWidget(optimizer_);
  formsLayout->addStretch(1);
  auto* settings = new QScrollArea(this);
  settings->setObjectName(QStringLiteral("optimizerPane"));
  settings->setWidget(forms);
  settings->setWidgetResizable(true);
  settings->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  new ScrollWidthFollower(settings);  // wide enough for the form, whichever optimiser
  settings->hide();
  auto* beside = new QSplitter(Qt::Horizontal, this);
  beside->addWidget(charts_);
  beside->addWidget(settings);
  beside->setStretchFactor(0, 4);
  beside->setChildrenCollapsible(false);
  connect(optimizerAction_, &QAction::toggled, settings, &QWidget::setVisible);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setObjectName(QStringLiteral("monitorSplitter"));
  splitter->addWidget(beside);
  splitter->addWidget(log_);
  splitter->setStretchFactor(0, 5);
  splitter->setStretchFactor(1, 1);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->setSpacing(6);
  layout->addWidget(buildToolBar());
  layout->addWidget(banner_);
  layout->addWidget(buildStatsStrip());
  layout->addWidget(splitter, 1);
  splitter->setSizes({560, 110});

  connect(charts_, &TrainingCharts::changed, this, &TrainingMonitorPanel::scheduleReplot);
  connect(charts_, &TrainingCharts::followingChanged, this,
          [this](bool following) { fit_->setEnabled(!following); });
  connect(controller_, &TrainingController::stepReceived, this, &TrainingMonitorPanel::onStep);
  connect(controller_, &TrainingController::validationReceived, this,
          &TrainingMonitorPanel::onValidation);
  connect(controller_, &TrainingController::checkpointSaved, this,
          &TrainingMonitorPanel::onCheckpoint);
  connect(controller_, &TrainingController::logMessage, this, &TrainingMonitorPanel::appendLog);
  connect(controller_, &TrainingController::noteReceived, this, &TrainingMonitorPanel::showNote);
  // A long validation or final test shows where it is in place of the ETA until the next step.
  connect(controller_, &TrainingController::phaseProgress, this,
          [this](double fraction, const QString& phase) {
            etaValue_->setText(tr("%1 %2%").arg(phase).arg(qRound(100.0 * fraction)));
          });
  connect(controller_, &TrainingController::runIdentified, this, [this](qint64 runId) {
    liveRunId_ = runId;
    liveRunName_ = storedRunName(runId);
    charts_->setLiveLabel(runLabel(runId));
    charts_->setLiveRunId(runId);
    updateStats();
  });
  connect(controller_, &TrainingController::finished, this, &TrainingMonitorPanel::onFinished);
  connect(controller_, &TrainingController::failed, this, &TrainingMonitorPanel::onFailed);
  connect(controller_, &TrainingController::stateChanged, this,
          &TrainingMonitorPanel::onStateChanged);
  connect(&document_, &ProjectDocument::projectChanged, this,
          &TrainingMonitorPanel::applyDefaultUnit);
  connect(&document_, &ProjectDocument::projectChanged, this,
          &TrainingMonitorPanel::updateProcessCapacity);
  // The rate chart is laid out for the project's optimiser before its run's first step.
  const auto followOptimizer = [this] {
    charts_->setNextRunHessianFree(document_.project().training.optimizer.kind ==
                                   engine::OptimizerKind::HessianFree);
  };
  connect(&document_, &ProjectDocument::projectChanged, this, followOptimizer);
  followOptimizer();
  applyDefaultUnit();
  updateProcessCapacity();
  connect(&document_, &ProjectDocument::pathChanged, this, &TrainingMonitorPanel::openProject);
  showProjectRuns();
  onStateChanged();
}

TrainingMonitorPanel::~TrainingMonitorPanel() = default;

void TrainingMonitorPanel::buildActions() {
  const auto make = [this](QStyle::StandardPixmap icon, const QString& text,
                           const QKeySequence& key, const QString& tip, const QString& name) {
    auto* action = new QAction(style()->standardIcon(icon), text, this);
    action->setObjectName(name);
    action->setShortcut(key);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    addAction(action);
    return action;
  };
  start_ = make(QStyle::SP_MediaPlay, tr("&Start"), QKeySequence(Qt::Key_F5),
                tr("Train the project's model; the run is recorded in the project's database"),
                QStringLiteral("startTrainingAction"));
  pause_ = make(QStyle::SP_MediaPause, tr("&Pause"), QKeySequence(Qt::Key_F6),
                tr("Pause after the current step"), QStringLiteral("pauseTrainingAction"));
  // F5 again, as a debugger's Continue: Start and Resume are never enabled together.
  resume_ = make(QStyle::SP_MediaSeekForward, tr("&Resume"), QKeySequence(Qt::Key_F5),
                 tr("Continue the paused run"), QStringLiteral("resumeTrainingAction"));
  // One enabled action per key: F5 belongs to whichever of Start and Resume can act
  // (onStateChanged moves it), never to both.
  resume_->setShortcut(QKeySequence());
  stop_ = make(QStyle::SP_MediaStop, tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
               tr("Stop after the current step, saving a checkpoint the run can resume from"),
               QStringLiteral("stopTrainingAction"));
  connect(start_, &QAction::triggered, this, &TrainingMonitorPanel::start);
  connect(pause_, &QAction::triggered, this, &TrainingMonitorPanel::pause);
  connect(resume_, &QAction::triggered, this, &TrainingMonitorPanel::resume);
  connect(stop_, &QAction::triggered, this, &TrainingMonitorPanel::stop);

  fit_ = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Fit"), this);
  fit_->setObjectName(QStringLiteral("fitChartsAction"));
  fit_->setToolTip(
      tr("Show all the data again and follow it as it grows (or double-click "
         "a chart)"));
  fit_->setEnabled(false);
  connect(fit_, &QAction::triggered, charts_, &TrainingCharts::fitToData);

  optimizerAction_ = new QAction(tr("Settings"), this);
  optimizerAction_->setObjectName(QStringLiteral("optimizerAction"));
  optimizerAction_->setIconText(tr("Settings"));
  optimizerAction_->setCheckable(true);
  optimizerAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  optimizerAction_->setToolTip(
      tr("Show the training settings beside the charts: length, batch, BPTT, schedule, "
         "validation, threads, and the optimiser with its learning rate (%1)")
          .arg(optimizerAction_->shortcut().toString(QKeySequence::NativeText)));
}

QWidget* TrainingMonitorPanel::buildToolBar() {
  toolRows_ = new ToolBarRows(this);
  QToolBar* bar = toolRows_->addBar(QStringLiteral("monitorToolBar"));
  bar->addAction(start_);
  bar->addAction(pause_);
  bar->addAction(resume_);
  bar->addAction(stop_);
  device_ = new DeviceChoiceBox(bar);
  device_->showDevice(QString::fromStdString(document_.project().training.device));
  connect(device_, &DeviceChoiceBox::deviceChosen, this, &TrainingMonitorPanel::chooseDevice);
  bar->addWidget(device_);
  processes_ = new ProcessCountBox(bar);
  connect(processes_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int processes) {
    controller_->setProcesses(processes);
    updatePauseAction();  // its tooltip says whether such a run can pause
    if (adjustingProcesses_) return;
    wantedProcesses_ = processes;
    emit processCountChanged(processes);
  });
  bar->addWidget(processes_);
  bar = toolRows_->addBar(QStringLiteral("monitorViewBar"));

  auto* xLabel = new QLabel(tr(" X axis "), bar);
  xAxis_ = new QComboBox(bar);
  xAxis_->setObjectName(QStringLiteral("xAxisCombo"));
  xAxis_->addItem(tr("Step"), static_cast<int>(TrainingCharts::XAxis::Step));
  xAxis_->addItem(tr("Epoch"), static_cast<int>(TrainingCharts::XAxis::Epoch));
  xAxis_->addItem(tr("Training time"), static_cast<int>(TrainingCharts::XAxis::WallTime));
  xAxis_->addItem(tr("Symbols read"), static_cast<int>(TrainingCharts::XAxis::Symbols));
  xAxis_->setToolTip(
      tr("Plot against optimisation steps, epochs, training time or training "
         "symbols read (time and symbols compare runs of different optimisers "
         "fairly: one Hessian-free step reads and computes as much as hundreds "
         "of Adam's)"));
  xLabel->setBuddy(xAxis_);
  connect(xAxis_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    charts_->setXAxis(static_cast<TrainingCharts::XAxis>(xAxis_->currentData().toInt()));
  });

  auto* unitLabel = new QLabel(tr("  Loss in "), bar);
  unit_ = new QComboBox(bar);
  unit_->setObjectName(QStringLiteral("unitCombo"));
  unit_->setToolTip(
      tr("Bits per symbol (character models) or perplexity (word models); a real-valued "
         "output's squared error as it is"));
  unitLabel->setBuddy(unit_);
  connect(unit_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    charts_->setUnit(static_cast<TrainingCharts::Unit>(unit_->currentData().toInt()));
    updateStats();
  });

  logScale_ = new QCheckBox(tr("&Log scale"), bar);
  logScale_->setObjectName(QStringLiteral("logScaleCheck"));
  logScale_->setToolTip(tr("Logarithmic y axes: late, small improvements stay visible"));
  connect(logScale_, &QCheckBox::toggled, charts_, &TrainingCharts::setLogScale);

  groupSeeds_ = new QCheckBox(tr("Seeds as &groups"), bar);
  groupSeeds_->setObjectName(QStringLiteral("groupSeedsCheck"));
  groupSeeds_->setToolTip(
      tr("Draw the runs of one configuration trained with different seeds as their mean with "
         "a band of ± one standard deviation (the readout gives both); off, each run on its "
         "own"));
  connect(groupSeeds_, &QCheckBox::toggled, this, [this] {
    if (!overlayIds_.isEmpty()) {
      const bool following = followingProject_;
      setOverlayRuns(overlayIds_);
      followingProject_ = following;
    }
  });

  auto* smoothingLabel = new QLabel(tr("  Smoothing "), bar);
  smoothing_ = new QDoubleSpinBox(bar);
  smoothing_->setObjectName(QStringLiteral("smoothingSpin"));
  smoothing_->setRange(0.0, 0.999);
  smoothing_->setDecimals(3);
  smoothing_->setSingleStep(0.05);
  smoothing_->setValue(charts_->smoothing());
  smoothing_->setToolTip(
      tr("Weight of the exponential moving average drawn over the raw "
         "training loss (0: none); the raw loss stays visible. A short run is smoothed "
         "less: the average never spans more than a fifth of its steps"));
  smoothingLabel->setBuddy(smoothing_);
  connect(smoothing_, qOverload<double>(&QDoubleSpinBox::valueChanged), charts_,
          &TrainingCharts::setSmoothing);

  bar->addWidget(xLabel);
  bar->addWidget(xAxis_);
  bar->addWidget(unitLabel);
  bar->addWidget(unit_);
  bar->addWidget(new QLabel(QStringLiteral("  "), bar));
  bar->addWidget(logScale_);
  bar->addWidget(groupSeeds_);
  bar->addWidget(smoothingLabel);
  bar->addWidget(smoothing_);
  bar->addSeparator();
  bar->addAction(fit_);
  bar = toolRows_->addBar(QStringLiteral("monitorOutputBar"));
  bar->addAction(optimizerAction_);
  // The charts as a figure and their numbers as CSV, as every analysis view offers.
  exportBar_ = new ExportBar(
      QStringLiteral("training-curves"), [this](const QString& path) { charts_->saveFigure(path); },
      [this] { return charts_->toCsv(); }, bar);
  exportBar_->figureButton()->setToolTip(tr("Save the five charts as PNG, SVG or PDF"));
  exportBar_->csvButton()->setToolTip(
      tr("Save every shown run's curves as CSV (loss in bits per symbol)"));
  bar->addWidget(exportBar_);
  connect(charts_, &TrainingCharts::changed, exportBar_,
          [this] { exportBar_->setAvailable(charts_->hasData()); });
  return toolRows_;
}

int TrainingMonitorPanel::toolBarRows() const {
  return toolRows_->rowCount();
}

QString TrainingMonitorPanel::logText() const {
  return log_->toPlainText();
}

QString TrainingMonitorPanel::runLabel(qint64 runId) const {
  // The name a new run records; a resumed run's is the store's.
  QString name = QString::fromStdString(engine::defaultRunName(document_.project().model));
  if (runId > 0 && runId == liveRunId_ && !liveRunName_.isEmpty()) name = liveRunName_;
  return runId > 0 ? tr("run %1 · %2").arg(runId).arg(name) : tr("this run · %1").arg(name);
}

QString TrainingMonitorPanel::runReadout() const {
  return runValue_->fullText();
}

int TrainingMonitorPanel::processCount() const {
  return processes_->value();
}

void TrainingMonitorPanel::setProcessCount(int processes) {
  wantedProcesses_ = std::max(1, processes);
  applyProcessCount();
}

void TrainingMonitorPanel::applyProcessCount() {
  adjustingProcesses_ = true;
  processes_->setValue(std::min(wantedProcesses_, processes_->maximum()));
  adjustingProcesses_ = false;
  controller_->setProcesses(processes_->value());
}

void TrainingMonitorPanel::chooseDevice(const QString& device) {
  engine::Project after = document_.project();
  after.training.device = device.toStdString();
  // bf16 autocast is a GPU setting: the trainer refuses it on a CPU.
  if (!engine::namesCudaDevice(after.training.device)) after.training.bf16 = false;
  document_.edit(after, tr("Train on %1").arg(device));
}

void TrainingMonitorPanel::updateProcessCapacity() {
  device_->showDevice(QString::fromStdString(document_.project().training.device));
  // A CUDA project trains one rank per GPU, when this LibTorch sees any.
  const int gpus =
      engine::namesCudaDevice(document_.project().training.device) ? gpusSeenOnce() : 0;
  const bool onGpus = gpus > 0;
  adjustingProcesses_ = true;
  processes_->setCapacity(onGpus, onGpus ? gpus : engine::hardwareThreads());
  adjustingProcesses_ = false;
  applyProcessCount();
}

void TrainingMonitorPanel::setStartEnabled(bool ok, const QString& whyNot) {
  startOk_ = ok;
  whyNot_ = whyNot;
  // A refusal the user has since put right is no longer true: it goes.
  if (ok && banner_->isVisible() && banner_->kind() == RunBanner::Kind::Failure &&
      banner_->text().startsWith(tr("Training did not start"))) {
    banner_->hide();
  }
  onStateChanged();
}

bool TrainingMonitorPanel::ensureSaved() {
  if (!document_.isUntitled() && !document_.isModified()) return true;
  // The main window saves (asking for a file name when untitled); if it did, go on.
  emit saveRequested();
  if (!document_.isUntitled() && !document_.isModified()) return true;
  const QString message = tr("Save the project first: runs are stored beside it");
  banner_->showMessage(RunBanner::Kind::Failure, tr("Training did not start"), message);
  emit statusMessage(message);
  return false;
}

void TrainingMonitorPanel::start() {
  if (controller_->isRunning()) return;
  if (!startOk_) {
    const QString why = whyNot_.isEmpty() ? tr("The model is not valid.") : whyNot_;
    banner_->showMessage(RunBanner::Kind::Failure, tr("Training did not start"), why);
    emit statusMessage(tr("Cannot train: %1").arg(why));
    return;
  }
  if (!ensureSaved()) return;
  if (!controller_->start()) return;
  liveRunId_ = 0;
  beginLiveRun(runLabel(0));
}

void TrainingMonitorPanel::startFromCheckpoint(qint64 runId, const QString& checkpoint) {
  if (controller_->isRunning()) {
    banner_->showMessage(RunBanner::Kind::Information, tr("A run is already training"),
                         tr("Stop it before resuming run %1.").arg(runId));
    return;
  }
  if (!ensureSaved()) return;
  if (!controller_->resume(checkpoint)) return;
  liveRunId_ = runId;
  liveRunName_ = storedRunName(runId);  // this project's run of that id, by its name now
  beginLiveRun(runLabel(runId));
  loadCurves({runId}, true);
}

void TrainingMonitorPanel::showNote(const QString& message) {
  const QString note = message.startsWith(QStringLiteral("note: ")) ? message.mid(6) : message;
  notes_ << note;
  banner_->showMessage(RunBanner::Kind::Information, tr("Note"), notes_.join(QLatin1Char('\n')));
  // A resume that keeps the run's own settings (or model) where the project now says others:
  // the two side by side, a click away.
  const bool kept = note.contains(QStringLiteral("continues with the settings it started")) ||
                    note.contains(QStringLiteral("has changed since"));
  if (kept && liveRunId_ > 0) {
    const qint64 runId = liveRunId_;
    banner_->setAction(tr("Compare its settings with the project's…"),
                       [this, runId] { compareWithProject(runId); });
  }
}

void TrainingMonitorPanel::compareWithProject(qint64 runId) {
  std::string stored;
  try {
    const auto run = engine::RunCatalogue(toNativePath(document_.folder())).run(runId);
    if (run) stored = run->configYaml;
  } catch (const std::exception& error) {
    appendLog(tr("could not read run %1's settings: %2").arg(runId).arg(error.what()));
    return;
  }
  auto* dialog = new ConfigDiffDialog(
      tr("run %1 (its own settings)").arg(runId), QString::fromStdString(stored),
      tr("the project now"), QString::fromStdString(engine::projectToYaml(document_.project())),
      this);
  dialog->setObjectName(QStringLiteral("resumeSettingsDiff"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void TrainingMonitorPanel::beginLiveRun(const QString& label) {
  runActive_ = true;
  haveStep_ = false;
  haveBest_ = false;
  lastStep_ = engine::StepEvent();
  banner_->hide();
  notes_.clear();
  charts_->startLive(label);
  // Reading the corpus and building the model take a while: the charts say it is under way,
  // not that Start is still to be pressed.
  charts_->setWaitingText(tr("%1 is starting: its first step appears here").arg(label));
  rankView_->clear();
  hessianFreeView_->clear();
  progress_->setValue(0);
  appendLog(liveRunId_ > 0 ? tr("--- resuming run %1 ---").arg(liveRunId_)
                           : tr("--- new run of %1 ---").arg(document_.displayName()));
  // A new live run: the overlays may now hold (or have left out) the live run's id.
  if (!overlayIds_.isEmpty()) setOverlayRuns(overlayIds_);
  updateStats();
}

void TrainingMonitorPanel::pause() {
  controller_->pause();
}

void TrainingMonitorPanel::resume() {
  controller_->resumeRun();
}

void TrainingMonitorPanel::stop() {
  controller_->stop();
}

void TrainingMonitorPanel::onStep(const engine::StepEvent& event) {
  charts_->addStep(event);
  rankView_->addStep(event.rankSymbolsPerSecond);
  hessianFreeView_->addStep(event);
  if (event.step == 1 || !haveStep_) preferFairAxis();
  lastStep_ = event;
  haveStep_ = true;
}

void TrainingMonitorPanel::onValidation(const engine::ValidationEvent& event) {
  charts_->addValidation(event);
  if (event.best || !haveBest_) {
    best_ = event;
    haveBest_ = true;
  }
  // A run followed through the store carries no such flag: the project's output says it.
  QString line = event.figures.squaredError || showsSquaredError()
                     ? tr("validation at step %1: mean squared error %2")
                           .arg(event.step)
                           .arg(formatLoss(event.figures.nats))
                     : tr("validation at step %1: %2 bits/symbol, perplexity %3")
                           .arg(event.step)
                           .arg(formatLoss(event.figures.bitsPerSymbol))
                           .arg(formatValue(event.figures.perplexity));
  if (event.figures.bitsPerWord > 0) {  // 0 when the word count is unknown
    line += tr(", %1 bits/word").arg(formatLoss(event.figures.bitsPerWord));
  }
  if (event.figures.errorRate >= 0) {  // a long-range problem: its criterion
    line += QStringLiteral(", ") + QString::fromStdString(engine::problemVerdict(
                                       event.figures.errorRate, event.figures.sequences));
  }
  if (event.best) line += tr("  (best so far)");
  if (event.seconds > 0)
    line += QStringLiteral("  ") +
            QString::fromStdString(engine::validationCostText(event.seconds, event.share));
  appendLog(line);
}

void TrainingMonitorPanel::onCheckpoint(const engine::CheckpointEvent& event) {
  if (liveRunId_ == 0 && controller_->runId() > 0) {
    liveRunId_ = controller_->runId();
    charts_->setLiveLabel(runLabel(liveRunId_));
  }
  appendLog(tr("saved the %1 checkpoint at step %2: %3")
                .arg(QString::fromStdString(event.kind))
                .arg(event.step)
                .arg(QDir::toNativeSeparators(QString::fromStdString(event.path))));
}

void TrainingMonitorPanel::onFinished(const engine::FinishedEvent& event) {
  runActive_ = false;
  charts_->setWaitingText(QString());
  if (controller_->runId() > 0) {
    liveRunId_ = controller_->runId();
    charts_->setLiveLabel(runLabel(liveRunId_));
  }
  const QString run = liveRunId_ > 0 ? tr("Run %1").arg(liveRunId_) : tr("The run");
  // A run whose optimiser stalled ended without what it was run for: not shown as a success.
  const bool stalled = !event.stopped && event.end == engine::RunEnd::Stalled;
  QString title;
  QString detail;
  if (event.beforeStart) {
    title = tr("Stopped before training began");
    detail = tr("The corpus was still being read, or the model built: nothing was recorded.");
  } else if (event.stopped) {
    title = tr("%1 stopped at step %2").arg(run).arg(event.step);
    detail = tr("Its latest checkpoint was saved: resume it from the Runs table.");
  } else {
    title = (stalled ? tr("%1 stalled: %2 steps in %3") : tr("%1 finished: %2 steps in %3"))
                .arg(run)
                .arg(event.step)
                .arg(formatDuration(event.wallSeconds));
    progress_->setValue(progress_->maximum());
    const std::string reason = engine::runEndReason(event.end);
    if (!reason.empty()) {
      detail = tr("It ended early: %1.").arg(QString::fromStdString(reason));
    }
  }
  QStringList figures;
  // The event's figures are in bits; a squared error is said as itself.
  const bool squared = showsSquaredError();
  const auto figure = [squared](double bits) {
    return squared ? tr("mean squared error %1").arg(formatLoss(bits * std::log(2.0)))
                   : tr("%1 bits/symbol").arg(formatLoss(bits));
  };
  if (event.bestValid > 0) figures << tr("best validation %1").arg(figure(event.bestValid));
  if (!event.stopped && event.test > 0) figures << tr("test %1").arg(figure(event.test));
  if (!event.stopped && event.testErrorRate >= 0) {
    figures << tr("on test, %1")
                   .arg(QString::fromStdString(
                       engine::problemVerdict(event.testErrorRate, event.testSequences)));
  }
  if (!figures.isEmpty()) {
    QString joined = figures.join(QStringLiteral(", "));
    joined = joined.left(1).toUpper() + joined.mid(1);  // a sentence of its own either way
    detail = detail.isEmpty() ? joined : detail + QLatin1Char(' ') + joined;
  }
  QStringList shown;  // the run's notes stay with how it ended
  if (!detail.isEmpty()) shown << detail;
  for (const QString& note : notes_) shown << tr("Note: %1").arg(note);
  banner_->showMessage(
      event.stopped || stalled ? RunBanner::Kind::Information : RunBanner::Kind::Success, title,
      shown.join(QLatin1Char('\n')));
  appendLog(title + (detail.isEmpty() ? QString() : QStringLiteral(". ") + detail));
  const QString summary = detail.isEmpty() ? title : title + QStringLiteral(". ") + detail;
  notifyDesktop(title, detail, false);
  emit statusMessage(summary);
  lastStatus_ = summary;
  refreshView();
  emit runEnded(true, summary);
}

void TrainingMonitorPanel::onFailed(const QString& reason) {
  const bool wasRunning = runActive_;
  runActive_ = false;
  charts_->setWaitingText(QString());
  if (controller_->runId() > 0) liveRunId_ = controller_->runId();
  const QString title = wasRunning ? (liveRunId_ > 0 ? tr("Run %1 failed").arg(liveRunId_)
                                                     : tr("Training could not start"))
                                   : tr("Training did not start");
  banner_->showMessage(RunBanner::Kind::Failure, title, reason);
  appendLog(title + QStringLiteral(": ") + reason);
  const QString summary = title + QStringLiteral(": ") + reason;
  if (!haveStep_) {
    // A run that never took a step leaves nothing to read out: the figures say "-", not its
    // name and 0% while other runs train.
    liveRunId_ = 0;
    liveRunName_.clear();
    progress_->setValue(0);
    updateStats();
  }
  emit statusMessage(summary);
  lastStatus_ = summary;
  if (!wasRunning) return;
  notifyDesktop(title, reason, true);
  refreshView();
  emit runEnded(false, summary);
}

void TrainingMonitorPanel::onStateChanged() {
  using State = TrainingController::State;
  const State state = controller_->state();
  // A problem the composer marks on a block disables Start; its tooltip says which.
  start_->setEnabled(state == State::Idle && startOk_);
  start_->setToolTip(startOk_ || whyNot_.isEmpty() ? start_->statusTip() + QStringLiteral(" (F5)")
                                                   : tr("Cannot train yet: %1").arg(whyNot_));
  updatePauseAction();
  processes_->setEnabled(state == State::Idle);
  resume_->setEnabled(state == State::Paused);
  start_->setShortcut(state == State::Paused ? QKeySequence() : QKeySequence(Qt::Key_F5));
  resume_->setShortcut(state == State::Paused ? QKeySequence(Qt::Key_F5) : QKeySequence());
  stop_->setEnabled(state == State::Running || state == State::Paused);
  switch (state) {
    case State::Idle:
      if (lastStatus_.isEmpty()) {
        emit statusMessage(startOk_ || whyNot_.isEmpty() ? tr("Ready to train")
                                                         : tr("Cannot train yet: %1").arg(whyNot_));
      }
      break;
    case State::Running:
      lastStatus_.clear();
      emit statusMessage(tr("Training %1…").arg(runLabel(liveRunId_)));
      break;
    case State::Paused:
      appendLog(tr("pause requested"));
      emit statusMessage(
          tr("Paused at step %1: press Resume (F5) to continue").arg(lastStep_.step));
      break;
    case State::Stopping:
      // Before its first step a run is still reading its corpus or building its model: it
      // ends there, with nothing to save.
      if (haveStep_) {
        appendLog(tr("stop requested: the run ends after this step, with a checkpoint"));
        emit statusMessage(tr("Stopping after the current step…"));
      } else {
        appendLog(tr("stop requested before the first step: the run ends without training"));
        emit statusMessage(tr("Stopping before the first step…"));
      }
      break;
  }
}

void TrainingMonitorPanel::updatePauseAction() {
  pause_->setEnabled(controller_->canPause());
  // The ranks of a run on several processes agree on stopping after a step, not on waiting.
  const bool ranks =
      controller_->isRunning() ? controller_->runProcesses() > 1 : controller_->processes() > 1;
  pause_->setToolTip(ranks ? tr("A run on several processes cannot pause: stop it (a checkpoint "
                                "is saved) and resume it later")
                           : pause_->statusTip() + QStringLiteral(" (F6)"));
}

void TrainingMonitorPanel::scheduleReplot() {
  if (!replotTimer_->isActive()) replotTimer_->start();
}

void TrainingMonitorPanel::refreshView() {
  replotTimer_->stop();
  charts_->replot();
  updateStats();
}

void TrainingMonitorPanel::updateStats() {
  const bool perplexity =
      unit_->currentData().toInt() == static_cast<int>(TrainingCharts::Unit::Perplexity);
  runValue_->setFullText(runActive_ || liveRunId_ > 0 ? runLabel(liveRunId_) : QStringLiteral("-"));
  if (!haveStep_) {
    for (QLabel* label :
         {stepValue_, epochValue_, lossValue_, speedValue_, elapsedValue_, etaValue_}) {
      label->setText(QStringLiteral("-"));
    }
  } else {
    stepValue_->setText(formatCount(lastStep_.step));
    epochValue_->setText(QString::number(lastStep_.epoch, 'f', 2));
    const QCPGraph* smoothed = charts_->liveGraph(TrainingCharts::Series::LossSmoothed);
    if (!smoothed->data()->isEmpty()) {
      const double value = (smoothed->data()->constEnd() - 1)->value;
      lossValue_->setText(perplexity ? formatValue(value) : formatLoss(value));
    }
    speedValue_->setText(
        tr("%1 sym/s")
            .arg(formatCount(static_cast<qint64>(std::llround(lastStep_.symbolsPerSecond)))));
    elapsedValue_->setText(formatDuration(lastStep_.wallSeconds));
    etaValue_->setText(runActive_ ? formatEta(lastStep_.etaSeconds) : QStringLiteral("-"));
    const double total = lastStep_.wallSeconds + lastStep_.etaSeconds;
    if (runActive_ && total > 0) {
      progress_->setValue(static_cast<int>(std::lround(1000.0 * lastStep_.wallSeconds / total)));
    }
  }
  if (haveBest_) {
    QString best = showsSquaredError() ? tr("%1 squared error").arg(formatLoss(best_.figures.nats))
                   : perplexity        ? tr("%1 ppl").arg(formatValue(best_.figures.perplexity))
                                : tr("%1 bits/symbol").arg(formatLoss(best_.figures.bitsPerSymbol));
    // A long-range problem: the share of sequences wrong is what says whether it is solved.
    if (best_.figures.errorRate >= 0) {
      best += tr(" · %1% wrong").arg(QString::number(100.0 * best_.figures.errorRate, 'f', 1));
    }
    bestValue_->setText(best);
    bestValue_->setToolTip(tr("At step %1").arg(best_.step));
  } else {
    bestValue_->setText(QStringLiteral("-"));
  }
  if (runActive_ && haveStep_ && controller_->state() == TrainingController::State::Running) {
    const QString status = tr("Training %1: step %2, loss %3, %4, ETA %5")
                               .arg(runLabel(liveRunId_), formatCount(lastStep_.step),
                                    lossValue_->text(), speedValue_->text(), etaValue_->text());
    if (status != lastStatus_) {
      lastStatus_ = status;
      emit statusMessage(status);
    }
  }
}

void TrainingMonitorPanel::appendLog(const QString& message) {
  QScrollBar* bar = log_->verticalScrollBar();
  const bool atEnd = bar->value() == bar->maximum();
  log_->appendPlainText(QStringLiteral("%1  %2").arg(
      QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")), message));
  if (atEnd) bar->setValue(bar->maximum());
}

void TrainingMonitorPanel::notifyDesktop(const QString& title, const QString& message,
                                         bool failure) {
  // A desktop notification for a researcher who is in another window when a long run ends.
  if (!QSystemTrayIcon::isSystemTrayAvailable() || !QSystemTrayIcon::supportsMessages()) return;
  if (!tray_) {
    tray_ = new QSystemTrayIcon(this);
    QIcon icon = QApplication::windowIcon();
    if (icon.isNull()) icon = style()->standardIcon(QStyle::SP_ComputerIcon);
    tray_->setIcon(icon);
    tray_->setToolTip(tr("mRNN Workbench"));
  }
  tray_->show();
  tray_->showMessage(title, message,
                     failure ? QSystemTrayIcon::Critical : QSystemTrayIcon::Information);
}

}  // namespace mrnn::widgets
