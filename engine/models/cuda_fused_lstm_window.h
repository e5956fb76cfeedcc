#pragma once

#include <torch/types.h>

#include "engine/models/cuda_fused_window.h"

namespace mrnn::engine {

// As fusedLstmWindow (fused_lstm_window.h), on CUDA tensors; xp may be a column slice of a
// wider projection (the Major-Minor LSTM's halves): it is made contiguous first.
FusedWindowResult cudaFusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& c0, const torch::Tensor& wH,
                                      const torch::Tensor& mask);

}  // namespace mrnn::engine
