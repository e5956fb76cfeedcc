#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedGruWindow (fused_gru_window.h), on CUDA tensors; only where cudaFusedWindowApplies
// says so. The result has no c.
FusedWindowResult cudaFusedGruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wZr, const torch::Tensor& wH,
                                     const torch::Tensor& mask);

}  // namespace mrnn::engine
