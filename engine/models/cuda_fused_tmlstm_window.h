#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedTmlstmWindow (fused_tmlstm_window.h), on CUDA tensors; only where
// cudaFusedWindowApplies says so.
FusedWindowResult cudaFusedTmlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                        const torch::Tensor& c0, const torch::Tensor& wMh,
                                        const torch::Tensor& v, const torch::Tensor& mask);

}  // namespace mrnn::engine
