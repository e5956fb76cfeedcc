#pragma once

#include <string>

#include "engine/optim/runaway_damping.h"

namespace mrnn::engine {

// What ended a run that was not stopped by request.
enum class RunEnd {
  Length,         // its steps or epochs
  TimeBudget,     // training.max_seconds
  EarlyStopping,  // training.early_stop_patience validations without improvement
  Solved,         // a long-range problem solved (training.stop_when_solved)
  Stalled,        // Hessian-free's λ ran away: its steps no longer lowered the loss
};

// Why the run ended before its length, in words for the banner and the terminal; empty for a
// run that ran its length.
inline std::string runEndReason(RunEnd end) {
  switch (end) {
    case RunEnd::TimeBudget:
      return "its time budget (training.max_seconds) was spent";
    case RunEnd::EarlyStopping:
      return "validation stopped improving (training.early_stop_patience)";
    case RunEnd::Solved:
      return "it solved the problem (training.stop_when_solved)";
    case RunEnd::Stalled:
      return "Hessian-free's damping λ rose at " + std::to_string(kRunawayRaises) +
             " of its last " + std::to_string(kRunawaySteps) + " steps, past " +
             std::to_string(static_cast<long long>(kRunawayLambda)) +
             ": its steps no longer lowered the loss";
    case RunEnd::Length:
      break;
  }
  return "";
}

}  // namespace mrnn::engine
