#pragma once

#include <torch/types.h>

#include "engine/bench/bench_shape.h"
#include "engine/bench/probe_result.h"

namespace mrnn::engine {

// The reference the engine's cells are compared with: embedding -> torch::nn::LSTM (cuDNN
// on CUDA, LibTorch's fused CPU LSTM otherwise) -> linear softmax, trained with the same
// Adam, clipping and truncated BPTT, sampled one symbol at a time as a user would.
ProbeResult runTorchLstmProbe(const BenchShape& shape, BenchMeasure measure,
                              const torch::Device& device);

}  // namespace mrnn::engine
