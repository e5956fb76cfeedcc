#pragma once

// The GRU fused window (engine/models/fused_gru_window.cpp) for a GPU, as cuda_lstm_window.h
// is the LSTM's: per step two products forward (W_zr, W_h) and two backward, the element-wise
// work in four steps each way, and the recurrent weights' gradients as one product each over
// all T x B rows. Raw float32 device pointers, row-major, contiguous; enqueued on ops
// (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/gru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/gru_window_layout.h.

struct GruWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, 3H]: the hoisted U x + b, rows z r j
  const float* h0 = nullptr;    // [B, H]
  const float* wZr = nullptr;   // [2H, H]
  const float* wH = nullptr;    // [H, H]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1} where it enters W_zr, or null
  float* hs = nullptr;          // out [T, B, H]
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask
  float* gates = nullptr;       // out [T, B, 3H]: z r j, activated
  float* rh = nullptr;          // out [T, B, H]: r * hin, as it enters W_h
};

struct GruWindowBackwardBuffers {
  GruWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;          // [T, B, H] or null
  float* dh = nullptr;                 // [B, H] in: the final h's gradient; out: h0's
  float* dXp = nullptr;                // out [T, B, 3H]: the pre-activations' gradients (= xp's)
  float* dhStep = nullptr;             // workspace [B, H]
  float* dRh = nullptr;                // workspace [B, H]
  float* dHin = nullptr;               // workspace [B, H]
  float* dWzr = nullptr;               // out [2H, H] (overwritten)
  float* dWh = nullptr;                // out [H, H] (overwritten)
};

// What a forward with these buffers leaves for the backward.
GruWindowSaved<const float*> savedBy(const GruWindowForwardBuffers& forward);

void gruWindowForward(const GruWindowSizes& sizes, const GruWindowForwardBuffers& buffers,
                      WindowOps& ops);

void gruWindowBackward(const GruWindowSizes& sizes, const GruWindowBackwardBuffers& buffers,
                       WindowOps& ops);

}  // namespace mrnn::engine::cuda
