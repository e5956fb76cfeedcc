#pragma once

// The plain RNN's fused window (engine/models/fused_rnn_window.cpp: h = tanh(W_hx x + b +
// W_hh h_{t-1})) for a GPU: per step one product and two element-wise steps forward (the
// state mask, tanh with the hoisted input joining), one product and two steps backward; W_hh's
// gradient as one product over all T x B rows. Raw float32 device pointers, row-major,
// contiguous; enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/rnn_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/rnn_window_layout.h.

struct RnnWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, H]: W_hx x + b
  const float* h0 = nullptr;    // [B, H]
  const float* wHh = nullptr;   // [H, H]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* hs = nullptr;          // out [T, B, H]
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask, as it enters W_hh
};

struct RnnWindowBackwardBuffers {
  RnnWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;          // [T, B, H] or null
  float* dh = nullptr;                 // [B, H] in: the final h's gradient; out: h0's
  float* dXp = nullptr;                // out [T, B, H]: the pre-activations' gradients
  float* dWhh = nullptr;               // out [H, H] (overwritten)
};

// What a forward with these buffers leaves for the backward.
RnnWindowSaved<const float*> savedBy(const RnnWindowForwardBuffers& forward);

void rnnWindowForward(const RnnWindowSizes& sizes, const RnnWindowForwardBuffers& buffers,
                      WindowOps& ops);

void rnnWindowBackward(const RnnWindowSizes& sizes, const RnnWindowBackwardBuffers& buffers,
                       WindowOps& ops);

}  // namespace mrnn::engine::cuda
