#pragma once

#include <torch/types.h>

#include <initializer_list>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The fused windows on a GPU (engine/cuda: per step one cuBLAS product per recurrent matrix
// and one fused element-wise kernel, forward and backward; weight gradients as one product
// over the window). This glue hands those kernels the tensors' device pointers and
// LibTorch's default stream, so it needs no LibTorch CUDA headers and builds beside a
// CPU-only LibTorch wherever nvcc built engine/cuda.

// Whether this build has the CUDA kernels and these tensors suit them: all defined, float32,
// on one CUDA device, the first (the window's projected inputs) with at least one step.
// Anything else (bf16 under autocast, double, the CPU) runs another path.
bool cudaFusedWindowApplies(std::initializer_list<torch::Tensor> tensors);

// As fusedMlstmWindow (fused_mlstm_window.h), on CUDA tensors; only where
// cudaFusedWindowApplies says so.
FusedWindowResult cudaFusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wMh,
                                       const torch::Tensor& wM, const torch::Tensor& mask);

// As fusedLstmWindow (fused_lstm_window.h), on CUDA tensors; xp may be a column slice of a
// wider projection (the Major-Minor LSTM's halves): it is made contiguous first.
FusedWindowResult cudaFusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& c0, const torch::Tensor& wH,
                                      const torch::Tensor& mask);

}  // namespace mrnn::engine
