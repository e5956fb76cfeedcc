#pragma once

#include <cstdint>

namespace mrnn::engine {

// One timed measurement in one process.
struct ProbeResult {
  double symbolsPerSecond = 0.0;
  double flopsPerSymbol = 0.0;  // flop_count.h: training 6, evaluation and sampling 2 per entry
  int64_t parameters = 0;
};

}  // namespace mrnn::engine
