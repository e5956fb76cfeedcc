#include "widgets/training/training_controller.h"
#include "widgets/native_path.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <type_traits>

#include "engine/devices/gpu_inventory.h"
#include "engine/training/training_run.h"
#include "widgets/mrnn_program.h"
#include "widgets/project/project_document.h"
#include "widgets/training/rank_process_run.h"

namespace mrnn::widgets {

void registerTrainingEventMetaTypes() {
  qRegisterMetaType<engine::StepEvent>("mrnn::engine::StepEvent");
  qRegisterMetaType<engine::ValidationEvent>("mrnn::engine::ValidationEvent");
  qRegisterMetaType<engine::CheckpointEvent>("mrnn::engine::CheckpointEvent");
  qRegisterMetaType<engine::FinishedEvent>("mrnn::engine::FinishedEvent");
}

TrainingController::TrainingController(ProjectDocument& document, QObject* parent)
    : QObject(parent),
      document_(document),
      program_(findMrnnProgram()),
      drainTimer_(new QTimer(this)) {
  registerTrainingEventMetaTypes();
  drainTimer_->setInterval(kDrainIntervalMs);
  connect(drainTimer_, &QTimer::timeout, this, &TrainingController::drain);
}

TrainingController::~TrainingController() {
  // TrainingRun's destructor asks the loop to stop (a checkpoint is saved) and joins it.
  if (run_) run_->stop();
  run_.reset();
  ranks_.reset();  // SIGTERM to the launcher, and a wait for the ranks' checkpoint
}

void TrainingController::setProcesses(int processes) {
  processes_ = std::max(1, processes);
}

qint64 TrainingController::launcherProcess() const {
  return ranks_ ? ranks_->processId() : 0;
}

int TrainingController::visibleGpus() {
  return static_cast<int>(engine::listComputeDevices().gpus.size());
}

bool TrainingController::start() {
  return launch(QString());
}

bool TrainingController::resume(const QString& checkpoint) {
  return launch(checkpoint);
}

bool TrainingController::launch(const QString& checkpoint) {
  if (run_ || ranks_) return false;
  if (document_.isUntitled() || document_.project().folder.empty()) {
    emit failed(tr("Save the project first: runs are stored beside it"));
    return false;
  }
  if (!checkpoint.isEmpty() && !QFileInfo::exists(checkpoint)) {
    emit failed(tr("The checkpoint %1 does not exist (was the run deleted, or did it stop "
                   "before its first checkpoint?)")
                    .arg(QDir::toNativeSeparators(checkpoint)));
    return false;
  }
  if (processes_ > 1) return launchRanks(checkpoint);
  engine::Project project = document_.project();
  terminal_.reset();
  stepsReceived_ = 0;
  runProcesses_ = 1;
  runId_ = 0;  // the engine's StartedEvent names the run
  // A resumed run keeps the settings it started with, but for the length the panel shows.
  const engine::RunLength length = engine::lengthOf(project.training);
  run_ = std::make_unique<engine::TrainingRun>(std::move(project));
  run_->start(toNativePath(checkpoint), length);
  drainTimer_->start();
  setState(State::Running);
  emit started(!checkpoint.isEmpty());
  return true;
}

bool TrainingController::launchRanks(const QString& checkpoint) {
  // The ranks read the project's file: what the document shows must be what they train.
  if (document_.isModified()) {
    emit failed(tr("Save the project first: the %1 processes read its file").arg(processes_));
    return false;
  }
  if (program_.isEmpty()) {
    emit failed(tr("Training on %1 processes needs mrnn (the command-line tool), which was not "
                   "found beside the workbench, in the build tree or on PATH")
                    .arg(processes_));
    return false;
  }
  RankProcessRun::Options options;
  options.program = program_;
  options.projectFile = document_.path();
  options.processes = processes_;
  options.checkpoint = checkpoint.isEmpty() ? QString() : QFileInfo(checkpoint).absoluteFilePath();
  options.maxSteps = document_.project().training.maxSteps;
  options.epochs = document_.project().training.epochs;
  auto ranks = std::make_unique<RankProcessRun>();
  QString problem;
  if (!ranks->start(options, &problem)) {
    emit failed(problem);
    return false;
  }
  ranks_ = std::move(ranks);
  terminal_.reset();
  stepsReceived_ = 0;
  runProcesses_ = processes_;
  runId_ = 0;
  drainTimer_->start();
  setState(State::Running);
  emit started(!checkpoint.isEmpty());
  return true;
}

void TrainingController::pause() {
  if (!run_ || state_ != State::Running) return;
  run_->pause();
  setState(State::Paused);
}

void TrainingController::resumeRun() {
  if (!run_ || state_ != State::Paused) return;
  run_->resume();
  setState(State::Running);
}

void TrainingController::stop() {
  if ((!run_ && !ranks_) || state_ == State::Stopping) return;
  if (run_) run_->stop();
  if (ranks_) ranks_->stop();
  setState(State::Stopping);
}

void TrainingController::drain() {
  if (!run_ && !ranks_) {
    drainTimer_->stop();
    return;
  }
  // Read isRunning() before draining: events pushed before the thread ended are then all in
  // this batch, so nothing is left behind when the run is torn down below.
  const bool ended = run_ ? !run_->isRunning() : !ranks_->isRunning();
  for (const engine::TrainingEvent& event : run_ ? run_->events().drain() : ranks_->drain()) {
    dispatch(event);
  }
  if (ended) finishRun();
}

void TrainingController::dispatch(const engine::TrainingEvent& event) {
  std::visit(
      [this, &event](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, engine::StartedEvent>) {
          runId_ = value.runId;
          emit runIdentified(runId_);
        } else if constexpr (std::is_same_v<T, engine::StepEvent>) {
          ++stepsReceived_;
          emit stepReceived(value);
        } else if constexpr (std::is_same_v<T, engine::ValidationEvent>) {
          emit validationReceived(value);
        } else if constexpr (std::is_same_v<T, engine::CheckpointEvent>) {
          emit checkpointSaved(value);
        } else if constexpr (std::is_same_v<T, engine::PhaseEvent>) {
          emit phaseProgress(value.fraction, QString::fromStdString(value.phase));
        } else if constexpr (std::is_same_v<T, engine::LogEvent>) {
          emit logMessage(QString::fromStdString(value.message));
          if (value.note) emit noteReceived(QString::fromStdString(value.message));
        } else {
          // FinishedEvent or FailedEvent: reported once the thread has ended.
          terminal_ = std::make_unique<engine::TrainingEvent>(event);
        }
      },
      event);
}

void TrainingController::finishRun() {
  drainTimer_->stop();
  if (run_) {
    run_->wait();  // the thread has already left its loop: this joins at once
    if (run_->outcome().runId > 0) runId_ = run_->outcome().runId;
    run_.reset();
  } else {
    if (ranks_->runId() > 0) runId_ = ranks_->runId();
    ranks_.reset();
  }
  std::unique_ptr<engine::TrainingEvent> last = std::move(terminal_);
  setState(State::Idle);
  if (last && std::holds_alternative<engine::FinishedEvent>(*last)) {
    emit finished(std::get<engine::FinishedEvent>(*last));
  } else if (last) {
    emit failed(QString::fromStdString(std::get<engine::FailedEvent>(*last).reason));
  } else {
    emit failed(tr("The training thread ended without reporting a result"));
  }
}

void TrainingController::setState(State state) {
  if (state == state_) return;
  state_ = state;
  emit stateChanged(state);
}

}  // namespace mrnn::widgets
