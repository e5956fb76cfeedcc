#pragma once

// The mGRU fused window (engine/models/fused_mgru_window.cpp: Maupome & Meurs eqs. 25-27,
// one intermediate state m shared by the gates) for a GPU: per step three products forward
// (W_mh, [V_z; V_r], V_h) and three backward, and the recurrent weights' gradients as one
// product each over all T x B rows. Raw float32 device pointers, row-major, contiguous;
// enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/mgru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/mgru_window_layout.h.

// G = 2H + M gate columns [z (H) | r (M) | j (H)]; a row of xp is [W_mx x (M) | U x + b (G)].
struct MgruWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, M + G]
  const float* h0 = nullptr;    // [B, H]
  const float* wMh = nullptr;   // [M, H]
  const float* vZr = nullptr;   // [H + M, M]: V_z; V_r
  const float* vH = nullptr;    // [H, M]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1} where it enters W_mh, or null
  float* hs = nullptr;          // out [T, B, H]
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask
  float* u = nullptr;           // out [T, B, M]: W_mh hin
  float* m = nullptr;           // out [T, B, M]: (W_mx x) * u
  float* gates = nullptr;       // out [T, B, G]: z r j, activated
  float* rm = nullptr;          // out [T, B, M]: r * m, as it enters V_h
};

struct MgruWindowBackwardBuffers {
  MgruWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;           // [T, B, H] or null
  float* dh = nullptr;                  // [B, H] in: the final h's gradient; out: h0's
  float* dXp = nullptr;                 // out [T, B, M + G]: [dXm | dz dr dj] (pre-activations)
  float* dU = nullptr;                  // workspace [T, B, M]: du per step, kept for dW_mh
  float* dM = nullptr;                  // workspace [B, M]
  float* dhStep = nullptr;              // workspace [B, H]
  float* dHin = nullptr;                // workspace [B, H]
  float* dWmh = nullptr;                // out [M, H] (overwritten)
  float* dVzr = nullptr;                // out [H + M, M] (overwritten)
  float* dVh = nullptr;                 // out [H, M] (overwritten)
};

// What a forward with these buffers leaves for the backward.
MgruWindowSaved<const float*> savedBy(const MgruWindowForwardBuffers& forward);

void mgruWindowForward(const MgruWindowSizes& sizes, const MgruWindowForwardBuffers& buffers,
                       WindowOps& ops);

void mgruWindowBackward(const MgruWindowSizes& sizes, const MgruWindowBackwardBuffers& buffers,
                        WindowOps& ops);

}  // namespace mrnn::engine::cuda
