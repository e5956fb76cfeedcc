#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedRnnWindow (fused_rnn_window.h), on CUDA tensors. The result has no c.
FusedWindowResult cudaFusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wHh, const torch::Tensor& mask);

}  // namespace mrnn::engine
