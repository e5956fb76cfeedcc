#pragma once

#include <algorithm>

namespace mrnn::engine {

// A run's ETA, the one formula for all that shows one (the trainer's step events, the
// monitor following a run other processes train, the experiment queue's trials): the time
// per step so far (elapsedSeconds over stepsDone, at least one step) times the steps still to
// go (none once totalSteps is reached; fractional where the length is in epochs), capped by
// what a time budget leaves (budgetSeconds, training.max_seconds; 0: none). Seconds, never
// negative.
inline double runEtaSeconds(double stepsDone, double totalSteps, double elapsedSeconds,
                            double budgetSeconds = 0.0) {
  const double secondsPerStep = elapsedSeconds / std::max(1.0, stepsDone);
  const double eta = std::max(0.0, totalSteps - stepsDone) * secondsPerStep;
  if (budgetSeconds <= 0.0) return eta;
  return std::min(eta, std::max(0.0, budgetSeconds - elapsedSeconds));
}

}  // namespace mrnn::engine
