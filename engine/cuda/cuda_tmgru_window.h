#pragma once

// The true mGRU fused window (engine/models/fused_tmgru_window.cpp: Maupome & Meurs eqs.
// 22-24, one intermediate state per gate, the candidate's read through r * h) for a GPU. Per
// step five products forward (W_mh_zr, V_z, V_r, W_mh_h, V_h) and five backward; the
// recurrent weights' gradients as one product each over all T x B rows at the end. Raw
// float32 device pointers, row-major, contiguous; enqueued on ops (window_ops.h); failures
// throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/tmgru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/tmgru_window_layout.h.

// A row of xp is X = 3M + 3H floats: [W_mx x (z r h, M each) | U x + b (z r j, H each)].
struct TmgruWindowForwardBuffers {
  const float* xp = nullptr;     // [T, B, X]
  const float* h0 = nullptr;     // [B, H]
  const float* wMhZr = nullptr;  // [2M, H]: W_mh,z; W_mh,r
  const float* wMhH = nullptr;   // [M, H]
  const float* v = nullptr;      // [3H, M]: V_z; V_r; V_h
  const float* mask = nullptr;   // [B, H] variational mask on h_{t-1} (not in the update), or null
  float* hs = nullptr;           // out [T, B, H]
  float* hin = nullptr;          // out [T, B, H]: h_{t-1} * mask
  float* uZr = nullptr;          // out [T, B, 2M]: W_mh_zr hin
  float* mZr = nullptr;          // out [T, B, 2M]: m_z, m_r
  float* gates = nullptr;        // out [T, B, 3H]: z r j, activated
  float* rh = nullptr;           // out [T, B, H]: r * hin, as it enters W_mh_h
  float* uH = nullptr;           // out [T, B, M]: W_mh_h (r * hin)
  float* mH = nullptr;           // out [T, B, M]: m_h
};

struct TmgruWindowBackwardBuffers {
  TmgruWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;            // [T, B, H] or null
  float* dh = nullptr;                   // [B, H] in: the final h's gradient; out: h0's
  float* dXp = nullptr;     // out [T, B, X]: [dXm (z r h) | dz dr dj] (pre-activations)
  float* dUZr = nullptr;    // workspace [T, B, 2M], kept for dW_mh_zr
  float* dUH = nullptr;     // workspace [T, B, M], kept for dW_mh_h
  float* dMZr = nullptr;    // workspace [B, 2M]
  float* dMH = nullptr;     // workspace [B, M]
  float* dhStep = nullptr;  // workspace [B, H]
  float* dHin = nullptr;    // workspace [B, H]
  float* dWmhZr = nullptr;  // out [2M, H] (overwritten)
  float* dWmhH = nullptr;   // out [M, H] (overwritten)
  float* dV = nullptr;      // out [3H, M] (overwritten)
};

// What a forward with these buffers leaves for the backward.
TmgruWindowSaved<const float*> savedBy(const TmgruWindowForwardBuffers& forward);

void tmgruWindowForward(const TmgruWindowSizes& sizes, const TmgruWindowForwardBuffers& buffers,
                        WindowOps& ops);

void tmgruWindowBackward(const TmgruWindowSizes& sizes, const TmgruWindowBackwardBuffers& buffers,
                         WindowOps& ops);

}  // namespace mrnn::engine::cuda
