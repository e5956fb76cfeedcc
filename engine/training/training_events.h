#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/store/metric_names.h"
#include "engine/training/metrics.h"
#include "engine/training/run_end.h"

namespace mrnn::engine {

// Value-type events a training run publishes. They carry numbers and text only (never
// tensors), so they cross to the GUI thread safely.

// The run is set up and about to train: its id (events after this belong to it), and the
// step it starts from (0 for a new run).
struct StartedEvent {
  int64_t runId = 0;
  int64_t step = 0;
  bool resumed = false;
  std::string checkpointFolder;
};

struct StepEvent {
  int64_t step = 0;
  double epoch = 0.0;  // fractional
  double loss = 0.0;   // nats per symbol, this window
  double bitsPerSymbol = 0.0;
  double learningRate = 0.0;
  double gradientNorm = 0.0;  // before clipping
  double symbolsPerSecond = 0.0;
  int64_t symbols = 0;      // training symbols read since the run began (a shared x axis)
  double etaSeconds = 0.0;  // to the end of the run; 0 when unknown
  double wallSeconds = 0.0;
  // Data parallel: each rank's symbols per second on its own streams, its wait for the other
  // ranks excluded (a slow rank shows as the lowest). Empty for one process.
  std::vector<double> rankSymbolsPerSecond;
  // What the update rule reports besides (Hessian-free: CG iterations, λ, ρ, the kept
  // iterate, the step size), by metric name. Empty for first-order rules.
  std::vector<NamedFigure> update;
};

struct ValidationEvent {
  int64_t step = 0;
  double epoch = 0.0;
  LossFigures figures;
  bool best = false;     // the best so far: the best checkpoint was written
  double seconds = 0.0;  // what this validation cost; 0 when unknown (read back from a store)
  // The validations' share of this session's time so far (training steps and validations).
  double share = 0.0;
};

struct CheckpointEvent {
  int64_t step = 0;
  std::string kind;  // "latest" or "best"
  std::string path;
};

// A long evaluation inside the run (a validation, the final test) is this far: the run's
// JobContext reports, about every percent.
struct PhaseEvent {
  double fraction = 0.0;
  std::string phase;  // "validating, scoring", "testing, scoring"
};

struct LogEvent {
  std::string message;
  // A line the researcher must not miss (a held-out figure worse than a uniform guess, a
  // resumed run keeping settings the project now gives otherwise): its text starts "note: ",
  // and the workbench shows it in the run's banner as well as in the messages.
  bool note = false;
};

struct FinishedEvent {
  int64_t step = 0;
  bool stopped = false;    // stopped by request (resumable), not run to the end
  double bestValid = 0.0;  // bits per symbol; 0 when never validated
  double test = 0.0;       // bits per symbol; 0 when not evaluated
  double wallSeconds = 0.0;
  // A long-range problem: the share of test sequences got wrong (solved below 0.01); -1
  // for corpora or when not evaluated.
  double testErrorRate = -1.0;
  int64_t testSequences = 0;  // the sequences testErrorRate is over
  RunEnd end = RunEnd::Length;
  // Stopped while the corpus was read, before a run was created or continued: nothing was
  // recorded, and there is no checkpoint to resume.
  bool beforeStart = false;
};

struct FailedEvent {
  int64_t runId = 0;  // 0: it failed before a run was created or continued
  int64_t step = 0;
  std::string reason;  // in words, naming what failed
};

using TrainingEvent = std::variant<StartedEvent, StepEvent, ValidationEvent, CheckpointEvent,
                                   PhaseEvent, LogEvent, FinishedEvent, FailedEvent>;

}  // namespace mrnn::engine
