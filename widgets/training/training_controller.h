#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "widgets/training/training_event_metatypes.h"

class QTimer;

namespace mrnn::engine {
class TrainingRun;
}

namespace mrnn::widgets {

class ProjectDocument;
class RankProcessRun;

// The GUI's adapter to an engine training run. The run trains on its own engine thread; a
// timer on the GUI thread drains its event queue every ~50 ms and re-emits each event as a
// Qt signal carrying the engine's value type, so no slot ever runs on the engine thread and
// the event loop never waits for training. Destroying the controller while a run trains
// stops the run (it saves a resumable checkpoint) and waits for its thread.
//
// With setProcesses(N > 1) the run trains on N processes instead: `mrnn train --nproc N`
// started as a child (RankProcessRun), followed through the run store, its progress the same
// signals with each rank's throughput in StepEvent::rankSymbolsPerSecond. Such a run cannot
// pause (the ranks agree on stopping only); stop() sends SIGTERM.
class TrainingController : public QObject {
  Q_OBJECT

 public:
  enum class State { Idle, Running, Paused, Stopping };
  Q_ENUM(State)

  // How often the event queue is drained.
  static constexpr int kDrainIntervalMs = 50;

  explicit TrainingController(ProjectDocument& document, QObject* parent = nullptr);
  ~TrainingController() override;

  // Trains a copy of the document's project as it is now (later edits do not reach the
  // running engine). False, with failed(reason), when the project has no folder yet (runs
  // are stored beside project.yaml); false without a signal when a run is already active.
  bool start();
  // How many processes the next run (or resume) trains on: 1 trains in this process; N > 1
  // starts `mrnn` with --nproc N (one GPU each on a CUDA project). The project must be saved,
  // since the processes read its file.
  void setProcesses(int processes);
  int processes() const { return processes_; }
  // The `mrnn` a run on several processes starts (findMrnnProgram() unless set; tests set the
  // build's).
  void setProgram(const QString& program) { program_ = program; }
  QString program() const { return program_; }
  // The GPUs this LibTorch sees (0 without CUDA): how many ranks a CUDA project can have.
  static int visibleGpus();

  // Continues the run a checkpoint belongs to, with the document's project (as
  // `mrnn resume <project.yaml> --checkpoint PATH` does): the engine refuses, through
  // failed(), a checkpoint made with another model or vocabulary.
  bool resume(const QString& checkpoint);
  // Honoured by the engine between steps.
  void pause();
  void resumeRun();
  // Ends the run after the current step with a resumable checkpoint; finished() follows
  // with stopped = true.
  void stop();

  bool isRunning() const { return state_ != State::Idle; }
  // Pause is for a run in this process; the ranks of a run on several processes cannot wait.
  bool canPause() const { return state_ == State::Running && !ranks_; }
  // The processes the current (or last) run trains on.
  int runProcesses() const { return runProcesses_; }
  // The `mrnn` launcher's process id while a run on several processes trains, else 0.
  qint64 launcherProcess() const;
  State state() const { return state_; }
  // The run being trained when it was resumed, else the last run once it has ended; 0 when
  // not known (a new run's id is assigned on the engine thread).
  qint64 runId() const { return runId_; }
  // Steps received from the current (or last) run.
  qint64 stepsReceived() const { return stepsReceived_; }

 signals:
  void stepReceived(const mrnn::engine::StepEvent& event);
  void validationReceived(const mrnn::engine::ValidationEvent& event);
  void checkpointSaved(const mrnn::engine::CheckpointEvent& event);
  void logMessage(const QString& message);
  // A line the researcher must not miss (engine::LogEvent::note), after its logMessage.
  void noteReceived(const QString& message);
  // A validation or the final test is this far (fraction 0..1, phase in words).
  void phaseProgress(double fraction, const QString& phase);
  // The run ended on its own or was stopped; emitted after the engine thread has ended, so
  // isRunning() is false and a new run may start from a slot connected here.
  void finished(const mrnn::engine::FinishedEvent& event);
  // The run could not start or failed, with the engine's reason in words.
  void failed(const QString& reason);
  void stateChanged(mrnn::widgets::TrainingController::State state);
  // A run started (fresh or resumed); the monitor clears its live curves here.
  void started(bool resumed);
  // The engine named the run being trained (a new run's id is known only then).
  void runIdentified(qint64 runId);

 private:
  bool launch(const QString& checkpoint);
  bool launchRanks(const QString& checkpoint);
  void drain();
  void dispatch(const engine::TrainingEvent& event);
  void finishRun();
  void setState(State state);

  ProjectDocument& document_;
  std::unique_ptr<engine::TrainingRun> run_;
  std::unique_ptr<RankProcessRun> ranks_;
  int processes_ = 1;
  int runProcesses_ = 1;
  QString program_;
  QTimer* drainTimer_ = nullptr;
  State state_ = State::Idle;
  qint64 runId_ = 0;
  qint64 stepsReceived_ = 0;
  // The run's last word (finished or failed), held back until the engine thread has ended.
  std::unique_ptr<engine::TrainingEvent> terminal_;
};

}  // namespace mrnn::widgets
