#pragma once

#include <cstdint>
#include <vector>

#include "engine/optim/update_rule.h"
#include "engine/training/run_counters.h"
#include "engine/training/training_events.h"

namespace mrnn::engine {

// How long a step took and what it read: its symbols (this rank's), its seconds (the slowest
// rank's with ranks), each rank's own working seconds and the streams this rank reads of a
// batch of `batch`.
struct StepTiming {
  int64_t symbols = 0;
  double seconds = 0.0;
  std::vector<double> rankSeconds;  // empty for one process
  int64_t batch = 1;
  int64_t streams = 1;
};

// A finished step as the monitor and the store read it: `counters` and `epoch` after it, the
// update's loss, gradient norm and figures, its rates (each rank's over its own work, the wait
// for the others excluded) and the run's ETA.
StepEvent stepEvent(const UpdateResult& result, double rate, const RunCounters& counters,
                    double epoch, const StepTiming& timing, double etaSeconds);

}  // namespace mrnn::engine
