#pragma once

// The LSTM fused window (engine/models/fused_lstm_window.cpp, output gate outside) on a CUDA
// device, as cuda_mlstm_window.h is the mLSTM's: per step one product (h W_h^T) and two
// element-wise steps (the state mask, the LSTM update) each way, and W_h's gradient as one
// product over all T x B rows. Raw float32 device pointers, row-major, contiguous; enqueued
// on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_ops.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the saved buffers and their shapes: engine/windows/lstm_window_layout.h.

struct LstmWindowForwardBuffers {
  const float* xp = nullptr;    // [T, B, 4H]: the hoisted W_x x + b
  const float* h0 = nullptr;    // [B, H]
  const float* c0 = nullptr;    // [B, H]
  const float* wH = nullptr;    // [4H, H]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* hs = nullptr;          // out [T, B, H]
  float* c = nullptr;           // out [T + 1, B, H]: c_0 .. c_T
  float* hin = nullptr;         // out [T, B, H]: h_{t-1} * mask, as it enters W_h
  float* gates = nullptr;       // out [T, B, 4H]: i f o j, activated
  float* tanhC = nullptr;       // out [T, B, H]
};

struct LstmWindowBackwardBuffers {
  LstmWindowSaved<const float*> saved;  // what the forward wrote or read (savedBy)
  const float* dHs = nullptr;           // [T, B, H] or null
  float* dh = nullptr;                  // [B, H] in: the final h's gradient; out: h0's
  float* dc = nullptr;                  // [B, H] in: the final c's gradient; out: c0's
  float* dXp = nullptr;                 // out [T, B, 4H]: the pre-activations' gradients (= xp's)
  float* dWh = nullptr;                 // out [4H, H] (overwritten)
};

// What a forward with these buffers leaves for the backward.
LstmWindowSaved<const float*> savedBy(const LstmWindowForwardBuffers& forward);

void lstmWindowForward(const LstmWindowSizes& sizes, const LstmWindowForwardBuffers& buffers,
                       WindowOps& ops);

void lstmWindowBackward(const LstmWindowSizes& sizes, const LstmWindowBackwardBuffers& buffers,
                        WindowOps& ops);

}  // namespace mrnn::engine::cuda
