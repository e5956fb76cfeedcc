#pragma once

// The true mLSTM fused window (engine/models/fused_tmlstm_window.cpp: Maupome & Meurs eqs.
// 14-17, one intermediate state per gate, output gate outside) for a GPU. Per step five
// products forward (W_mh for all four gates at once, then each gate's V_g) and five backward,
// three element-wise steps each way; the recurrent weights' gradients as one product each
// over all T x B rows at the end. Raw float32 device pointers, row-major, contiguous;
// enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/tmlstm_window_layout.h.

// A row of xp is X = 4M + 4H floats: [W_mx x (i f o j, M each) | W_x x + b (i f o j)].
struct TmlstmWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, X]
  const float* h0 = nullptr;    // [B, H]
  const float* c0 = nullptr;    // [B, H]
  const float* wMh = nullptr;   // [4M, H]: W_mh,i .. W_mh,j stacked
  const float* v = nullptr;     // [4H, M]: V_i .. V_j stacked
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* hs = nullptr;          // out [T, B, H]
  float* c = nullptr;           // out [T + 1, B, H]: c_0 (a copy of c0) .. c_T
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask
  float* u = nullptr;           // out [T, B, 4M]: W_mh hin, gate-major
  float* m = nullptr;           // out [T, B, 4M]: (W_mx x) * u
  float* gates = nullptr;       // out [T, B, 4H]: i f o j, activated
  float* tanhC = nullptr;       // out [T, B, H]
};

struct TmlstmWindowBackwardBuffers {
  TmlstmWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;             // [T, B, H] or null
  float* dh = nullptr;                    // [B, H] in: the final h's gradient; out: h0's
  float* dc = nullptr;                    // [B, H] in: the final c's gradient; out: c0's
  float* dXp = nullptr;                   // out [T, B, X]: [dXm | dGates] (pre-activations)
  float* dU = nullptr;                    // workspace [T, B, 4M]: du per step, kept for dW_mh
  float* dM = nullptr;                    // workspace [B, 4M]
  float* dWmh = nullptr;                  // out [4M, H] (overwritten)
  float* dV = nullptr;                    // out [4H, M] (overwritten)
};

// What a forward with these buffers leaves for the backward.
TmlstmWindowSaved<const float*> savedBy(const TmlstmWindowForwardBuffers& forward);

void tmlstmWindowForward(const TmlstmWindowSizes& sizes, const TmlstmWindowForwardBuffers& buffers,
                         WindowOps& ops);

void tmlstmWindowBackward(const TmlstmWindowSizes& sizes,
                          const TmlstmWindowBackwardBuffers& buffers, WindowOps& ops);

}  // namespace mrnn::engine::cuda
