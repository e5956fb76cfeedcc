#pragma once

#include <cstdint>

namespace mrnn::engine {

// How far a run has come, carried across resumes (its checkpoints keep them).
struct RunCounters {
  int64_t step = 0;
  int64_t symbols = 0;       // training symbols read
  double wallSeconds = 0.0;  // training time
};

}  // namespace mrnn::engine
