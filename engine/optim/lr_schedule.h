#pragma once

#include <cstdint>
#include <string>

#include "engine/config/training_config.h"

namespace mrnn::engine {

// The learning rate over a run. The trainer calls rate() before each step, and
// onValidation() after each validation (Plateau decays there). Its state (Plateau's
// current rate and counters) round-trips through save/restore for exact resumption.
class LrSchedule {
 public:
  LrSchedule(const ScheduleConfig& config, double baseRate, int64_t totalSteps,
             int64_t stepsPerEpoch);

  double rate(int64_t step) const;
  void onValidation(double validLoss);

  std::string saveState() const;
  void restoreState(const std::string& state);

 private:
  ScheduleConfig config_;
  double baseRate_;
  int64_t totalSteps_;
  int64_t stepsPerEpoch_;
  double plateauRate_;
  double bestLoss_;
  int64_t badValidations_ = 0;
};

}  // namespace mrnn::engine
