#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/runtime/stop_token.h"
#include "engine/training/resumed_training.h"
#include "engine/training/training_events.h"

namespace mrnn::engine {

class Collective;

// What a finished call to Trainer::run() reports (the events say the same, step by step).
struct TrainingOutcome {
  int64_t runId = 0;
  int64_t steps = 0;
  bool finished = false;  // ran to the end
  bool stopped = false;   // stopped on request: resumable from the latest checkpoint
  bool failed = false;
  std::string reason;  // why it failed
  // It failed because another program held the run database past the wait: nothing is wrong
  // with the run, and it can be tried again once the database is free.
  bool databaseHeld = false;
  double bestValid = 0.0;       // bits per symbol
  double test = 0.0;            // bits per symbol
  double testErrorRate = -1.0;  // a long-range problem's (FinishedEvent::testErrorRate)
  int64_t testSequences = 0;
  RunEnd end = RunEnd::Length;  // what ended a finished run
  std::string latestCheckpoint;
  std::string bestCheckpoint;
};

// Trains a project's model on its corpus, on the calling thread (TrainingRun puts it on an
// engine thread). Every problem ends the run with a FailedEvent naming it, never a crash;
// the run database and the last good checkpoint stay intact.
class Trainer {
 public:
  using Publish = std::function<void(TrainingEvent)>;

  // With `collective` (data parallel, docs/distributed.md), this process is one rank of a
  // run: it trains on its share of each batch's streams, the ranks sum their gradients, and
  // rank 0 alone writes the run store and the checkpoints. The collective must outlive run().
  Trainer(Project project, Publish publish, Collective* collective = nullptr);

  // A new run, or, with `resumeFrom` (a checkpoint path), the continuation of one: model,
  // optimiser, schedule, data position, recurrent state and random generator all restored,
  // so N + N steps equal 2N uninterrupted steps on CPU. A resumed run keeps the training
  // settings it started with, but for the project's device, threads and bf16 and `length`
  // where given (resumedTraining).
  // `stop` pauses the run between steps and stops it with a resumable checkpoint.
  TrainingOutcome run(const StopToken& stop, const std::string& resumeFrom = "",
                      const RunLength& length = {});

 private:
  Project project_;
  Publish publish_;
  Collective* collective_ = nullptr;
};

}  // namespace mrnn::engine
