#pragma once

// The mLSTM fused window (engine/models/fused_mlstm_window.cpp, output gate outside) for a
// GPU: the same algorithm on raw device pointers, per step two products and three
// element-wise steps (the state mask, m, the LSTM update) each way, and the recurrent
// weights' gradients as one product each over all T x B rows at the end. Written against WindowOps
// (window_ops.h): CudaWindowOps enqueues it on a stream with cuBLAS and kernels, and the
// tests run it on the CPU. No LibTorch and no CUDA header here: the caller owns every buffer
// (a LibTorch CUDA tensor's data, or cudaMalloc). All buffers are float32, row-major and
// contiguous, as on the CPU.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/mlstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/mlstm_window_layout.h.

// The forward pass's inputs, and what it writes: the outputs and, window-sized, everything
// the backward pass reads. X = M + 4H.
struct MlstmWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, X]: the hoisted projections [W_mx x | W_x x + b]
  const float* h0 = nullptr;    // [B, H]
  const float* c0 = nullptr;    // [B, H]
  const float* wMh = nullptr;   // [M, H]
  const float* wM = nullptr;    // [4H, M]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* hs = nullptr;          // out [T, B, H]; the final h is hs[T - 1]
  float* c = nullptr;           // out [T + 1, B, H]: c_0 (a copy of c0) .. c_T, the final c
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask, as it enters W_mh
  float* u = nullptr;           // out [T, B, M]: W_mh h_{t-1}
  float* m = nullptr;           // out [T, B, M]: (W_mx x) * u
  float* gates = nullptr;       // out [T, B, 4H]: i f o j, activated
  float* tanhC = nullptr;       // out [T, B, H]: tanh(c_1) .. tanh(c_T)
};

// The backward pass's inputs (the forward's saved buffers, the gradients reaching the
// outputs) and what it writes.
struct MlstmWindowBackwardBuffers {
  MlstmWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  // [T, B, H]: the gradient reaching every step's h, or null.
  const float* dHs = nullptr;
  // [B, H] in: the gradient reaching the final h (zeros for none); out: the gradient of h0.
  float* dh = nullptr;
  // [B, H] in: the gradient reaching the final c (zeros for none); out: the gradient of c0.
  float* dc = nullptr;
  // Out [T, B, X]: [dXm | dGates], dGates the gradient of the gates' pre-activations.
  float* dXp = nullptr;
  float* dU = nullptr;    // workspace [T, B, M]: du per step, kept for dW_mh
  float* dM = nullptr;    // workspace [B, M]
  float* dWmh = nullptr;  // out [M, H] (overwritten, not accumulated)
  float* dWm = nullptr;   // out [4H, M] (overwritten, not accumulated)
};

// What a forward with these buffers leaves for the backward.
MlstmWindowSaved<const float*> savedBy(const MlstmWindowForwardBuffers& forward);

// The window forward, enqueued on ops.
void mlstmWindowForward(const MlstmWindowSizes& sizes, const MlstmWindowForwardBuffers& buffers,
                        WindowOps& ops);

// The window backward, on buffers a forward with the same sizes wrote.
void mlstmWindowBackward(const MlstmWindowSizes& sizes, const MlstmWindowBackwardBuffers& buffers,
                         WindowOps& ops);

}  // namespace mrnn::engine::cuda
