#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedMgruWindow (fused_mgru_window.h), on CUDA tensors; only where cudaFusedWindowApplies
// says so. The result has no c.
FusedWindowResult cudaFusedMgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& vZr,
                                      const torch::Tensor& vH, const torch::Tensor& mask);

}  // namespace mrnn::engine
