#pragma once

// The multiplicative RNN's fused window (engine/models/fused_mrnn_window.cpp: Sutskever et
// al. eqs. 7-8, m = (W_mx x) * (W_mh h_{t-1}), h = tanh(W_hx x + W_hm m + b)) for a GPU: per
// step two products and three element-wise steps each way; the recurrent weights' gradients
// as one product each over all T x B rows. Raw float32 device pointers, row-major,
// contiguous; enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/mrnn_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/mrnn_window_layout.h.

// A row of xp is X = M + H floats: [W_mx x | W_hx x + b].
struct MrnnWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, X]
  const float* h0 = nullptr;    // [B, H]
  const float* wMh = nullptr;   // [M, H]
  const float* wHm = nullptr;   // [H, M]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* hs = nullptr;          // out [T, B, H]
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask
  float* u = nullptr;           // out [T, B, M]: W_mh hin
  float* m = nullptr;           // out [T, B, M]: (W_mx x) * u
};

struct MrnnWindowBackwardBuffers {
  MrnnWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;           // [T, B, H] or null
  float* dh = nullptr;                  // [B, H] in: the final h's gradient; out: h0's
  float* dXp = nullptr;                 // out [T, B, X]: [dXm | dPre]
  float* dU = nullptr;                  // workspace [T, B, M]: du per step, kept for dW_mh
  float* dM = nullptr;                  // workspace [B, M]
  float* dWmh = nullptr;                // out [M, H] (overwritten)
  float* dWhm = nullptr;                // out [H, M] (overwritten)
};

// What a forward with these buffers leaves for the backward.
MrnnWindowSaved<const float*> savedBy(const MrnnWindowForwardBuffers& forward);

void mrnnWindowForward(const MrnnWindowSizes& sizes, const MrnnWindowForwardBuffers& buffers,
                       WindowOps& ops);

void mrnnWindowBackward(const MrnnWindowSizes& sizes, const MrnnWindowBackwardBuffers& buffers,
                        WindowOps& ops);

}  // namespace mrnn::engine::cuda
