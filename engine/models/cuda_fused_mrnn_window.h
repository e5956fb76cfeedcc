#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedMrnnWindow (fused_mrnn_window.h), on CUDA tensors. The result has no c.
FusedWindowResult cudaFusedMrnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& wHm,
                                      const torch::Tensor& mask);

}  // namespace mrnn::engine
