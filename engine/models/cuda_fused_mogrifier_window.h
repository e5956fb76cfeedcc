#pragma once

#include <torch/types.h>

#include <vector>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedMogrifierWindow (fused_mogrifier_window.h), on CUDA tensors; only where
// cudaFusedWindowApplies says so.
FusedWindowResult cudaFusedMogrifierWindow(const torch::Tensor& x, const torch::Tensor& h0,
                                           const torch::Tensor& c0, const torch::Tensor& wX,
                                           const torch::Tensor& b, const torch::Tensor& wH,
                                           const std::vector<torch::Tensor>& rounds, bool lowRank,
                                           bool zigzag, const torch::Tensor& mask);

}  // namespace mrnn::engine
