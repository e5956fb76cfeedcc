#pragma once

#include <torch/types.h>

#include <initializer_list>
#include <vector>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The fused windows on a GPU (engine/cuda: per step one cuBLAS product per recurrent matrix
// and a few fused element-wise kernels, forward and backward; weight gradients as one product
// over the window), for every cell with a CPU fused window: the mLSTM, the LSTM (and the
// Major-Minor LSTM's halves), the GRU, the mGRU, the true mLSTM and true mGRU, the plain and
// multiplicative RNNs, and the Mogrifier LSTM. This glue hands those kernels the tensors'
// device pointers and LibTorch's default stream, so it needs no LibTorch CUDA headers and
// builds beside a CPU-only LibTorch wherever nvcc built engine/cuda.

// Whether this build has the CUDA kernels and these tensors suit them: all defined, float32
// (or bfloat16 under CUDA bf16 autocast, when the windows multiply at bfloat16), on one CUDA
// device, the first (the window's projected inputs) with at least one step. Anything else
// (double, float16, the CPU) runs another path.
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

// As fusedGruWindow and fusedMgruWindow (fused_gru_window.h, fused_mgru_window.h), on CUDA
// tensors (cuda_fused_gru_windows.cpp). The results have no c.
FusedWindowResult cudaFusedGruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wZr, const torch::Tensor& wH,
                                     const torch::Tensor& mask);
FusedWindowResult cudaFusedMgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& vZr,
                                      const torch::Tensor& vH, const torch::Tensor& mask);

// As fusedTmlstmWindow and fusedTmgruWindow (fused_tmlstm_window.h, fused_tmgru_window.h), on
// CUDA tensors (cuda_fused_true_windows.cpp). The true mGRU's result has no c.
FusedWindowResult cudaFusedTmlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                        const torch::Tensor& c0, const torch::Tensor& wMh,
                                        const torch::Tensor& v, const torch::Tensor& mask);
FusedWindowResult cudaFusedTmgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& wMhZr, const torch::Tensor& wMhH,
                                       const torch::Tensor& v, const torch::Tensor& mask);

// As fusedRnnWindow and fusedMrnnWindow (fused_rnn_window.h, fused_mrnn_window.h), on CUDA
// tensors (cuda_fused_rnn_windows.cpp). The results have no c.
FusedWindowResult cudaFusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                     const torch::Tensor& wHh, const torch::Tensor& mask);
FusedWindowResult cudaFusedMrnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                      const torch::Tensor& wMh, const torch::Tensor& wHm,
                                      const torch::Tensor& mask);

// As fusedMogrifierWindow (fused_mogrifier_window.h), on CUDA tensors
// (cuda_fused_mogrifier_window.cpp).
FusedWindowResult cudaFusedMogrifierWindow(const torch::Tensor& x, const torch::Tensor& h0,
                                           const torch::Tensor& c0, const torch::Tensor& wX,
                                           const torch::Tensor& b, const torch::Tensor& wH,
                                           const std::vector<torch::Tensor>& rounds, bool lowRank,
                                           bool zigzag, const torch::Tensor& mask);

}  // namespace mrnn::engine
