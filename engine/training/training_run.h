#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/runtime/stop_token.h"
#include "engine/training/event_queue.h"
#include "engine/training/trainer.h"

namespace mrnn::engine {

// A training run on its own engine thread. Subscribers read value-type events from
// events(); pause(), resume() and stop() take effect within one step. Destroying a running
// TrainingRun stops it (with a checkpoint) and joins the thread.
class TrainingRun {
 public:
  explicit TrainingRun(Project project);
  ~TrainingRun();
  TrainingRun(const TrainingRun&) = delete;
  TrainingRun& operator=(const TrainingRun&) = delete;

  // A new run, or the one `resumeFrom` continues (for `length`, Trainer::run).
  void start(const std::string& resumeFrom = "", const RunLength& length = {});
  void pause() { stop_.requestPause(); }
  void resume() { stop_.requestResume(); }
  void stop() { stop_.requestStop(); }
  // Before start(): train as one rank of a data-parallel run (Trainer). Must outlive the run.
  void joinRanks(Collective* collective) { collective_ = collective; }
  void wait();
  bool isRunning() const;

  EventQueue<TrainingEvent>& events() { return events_; }
  // Valid after wait().
  const TrainingOutcome& outcome() const { return outcome_; }

 private:
  Project project_;
  Collective* collective_ = nullptr;
  StopToken stop_;
  EventQueue<TrainingEvent> events_;
  TrainingOutcome outcome_;
  std::thread thread_;
  std::atomic<bool> running_{false};
};

}  // namespace mrnn::engine
