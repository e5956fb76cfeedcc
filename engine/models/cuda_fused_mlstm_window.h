#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedMlstmWindow (fused_mlstm_window.h), on CUDA tensors; only where
// cudaFusedWindowApplies says so.
FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wMh,
                                       const torch::Tensor& wM, const torch::Tensor& mask);

}  // namespace mrnn::engine
