#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "engine/config/project_file.h"
#include "engine/training/trainer.h"

namespace mrnn::app {

struct TerminalTrainingOptions {
  std::string resumeFrom;    // a checkpoint to continue, or empty for a new run
  engine::RunLength length;  // resuming: a new length (unset: the run's own)
  int64_t stopAtStep = 0;    // stop (resumable) after this step; 0: the project's own end
  // Data parallel: this process is one rank (must outlive the call).
  engine::Collective* collective = nullptr;
  // Ranks other than 0 print only their failures.
  bool quiet = false;
  std::string errorPrefix;  // "rank N: " after "mrnn: " on a failure, for the ranks' errors
};

// What a run in the terminal came to.
struct TerminalTrainingResult {
  engine::TrainingOutcome outcome;
  bool interrupted = false;  // a signal (Ctrl-C, SIGTERM, SIGHUP) stopped it
};

// Trains `project` on the engine thread, printing a progress line (epoch, step, loss,
// bits/symbol, symbols/s, ETA) to `out` and failures to `err`. Ctrl-C, SIGTERM and SIGHUP
// stop it after the current step with a resumable checkpoint (the previous handlers return
// afterwards). `mrnn train`, `mrnn resume` and an experiment's trials use it.
TerminalTrainingResult trainInTerminal(const engine::Project& project,
                                       const TerminalTrainingOptions& options, std::ostream& out,
                                       std::ostream& err);

}  // namespace mrnn::app
