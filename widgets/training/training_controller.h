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

// The GUI's adapter to an engine training run. The run trains on its own engine thread; a
// timer on the GUI thread drains its event queue every ~50 ms and re-emits each event as a
// Qt signal carrying the engine's value type, so no slot ever runs on the engine thread and
// the event loop never waits for training. Destroying the controller while a run trains
// stops the run (it saves a resumable checkpoint) and waits for its thread.
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

 private:
  bool launch(const QString& checkpoint);
  void drain();
  void dispatch(const engine::TrainingEvent& event);
  void finishRun();
  void setState(State state);

  ProjectDocument& document_;
  std::unique_ptr<engine::TrainingRun> run_;
  QTimer* drainTimer_ = nullptr;
  State state_ = State::Idle;
  qint64 runId_ = 0;
  qint64 stepsReceived_ = 0;
  // The run's last word (finished or failed), held back until the engine thread has ended.
  std::unique_ptr<engine::TrainingEvent> terminal_;
};

}  // namespace mrnn::widgets
