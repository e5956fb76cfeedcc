#pragma once

// The LSTM fused window (engine/models/fused_lstm_window.cpp, output gate outside) on a CUDA
// device, as cuda_mlstm_window.h is the mLSTM's: per step one product (h W_h^T) and two
// element-wise steps (the state mask, the LSTM update) each way, and W_h's gradient as one
// product over all T x B rows. Raw float32 device pointers, row-major, contiguous; enqueued
// on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/lstm_window_layout.h.

using LstmWindowForwardBuffers = WindowForwardBuffers<LstmWindow>;
using LstmWindowBackwardBuffers = WindowBackwardBuffers<LstmWindow>;

void windowForward(const LstmWindowSizes& sizes, const LstmWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const LstmWindowSizes& sizes, const LstmWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
