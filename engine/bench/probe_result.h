#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// One timed measurement in one process.
struct ProbeResult {
  double symbolsPerSecond = 0.0;
  double flopsPerSymbol = 0.0;  // flop_count.h: training 6, evaluation and sampling 2 per entry
  int64_t parameters = 0;
  // On CUDA: the device's memory in use after the timed part (gpuMemoryInUse: the probe's
  // tensors, LibTorch's cache and the CUDA context); -1 elsewhere or where unknown.
  int64_t gpuMemoryBytes = -1;
  // What torch::nn::LSTM's recurrence returned ("Float", "BFloat16", "Half"): under autocast
  // the cuDNN LSTM casts its inputs itself, so the bf16 row says what it really ran at.
  // Empty where not reported.
  std::string recurrentDtype;
};

}  // namespace mrnn::engine
