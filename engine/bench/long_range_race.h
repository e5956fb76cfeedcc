#pragma once

#include <cstdint>
#include <string>

#include "engine/config/data_config.h"

namespace mrnn::engine {

// Hessian-free against Adam on one long-range problem, given the same training time: the
// evidence Hessian-free exists for (Martens & Sutskever 2011). Both train the same tanh RNN
// from the same sparse initial weights on the same fresh sequences; Hessian-free runs
// `hessianFreeSteps` steps, and Adam then trains for as long as those took
// (training.max_seconds). Each run ends with its test error rate; a problem is solved below 1%.
struct RaceOptions {
  SyntheticTask problem = SyntheticTask::TemporalOrder2;
  int64_t length = 60;  // T
  int64_t hidden = 64;
  int64_t batch = 100;
  int64_t hessianFreeSteps = 60;
  double adamRate = 0.003;
  uint64_t seed = 1;
  int threads = 0;  // 0: every free core, following the load
};

struct RaceResult {
  int64_t steps = 0;
  int64_t cgIterations = 0;  // Hessian-free: CG iterations over all its steps
  double seconds = 0.0;      // training time (validation and test excluded)
  double testErrorRate = -1.0;
  bool solved = false;
  std::string failure;  // the run's reason, when it failed
};

struct LongRange {
  RaceResult hessianFree;
  RaceResult adam;
};

// Runs the race in `folder` (created; its runs database and checkpoints stay there). Throws
// std::runtime_error naming what could not run.
LongRange raceOnProblem(const RaceOptions& options, const std::string& folder);

// The project text each side trains ("hessian_free" or "adam"): what the race runs, for a
// researcher to run by hand with `mrnn train`.
std::string raceProjectYaml(const RaceOptions& options, bool hessianFree);

}  // namespace mrnn::engine
