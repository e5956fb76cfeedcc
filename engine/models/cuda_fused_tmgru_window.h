#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedTmgruWindow (fused_tmgru_window.h), on CUDA tensors; only where
// cudaFusedWindowApplies says so. The result has no c.
FusedWindowResult cudaFusedTmgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& wMhZr, const torch::Tensor& wMhH,
                                       const torch::Tensor& v, const torch::Tensor& mask);

}  // namespace mrnn::engine
