#pragma once

// The GRU fused window (engine/models/fused_gru_window.cpp) for a GPU, as cuda_lstm_window.h
// is the LSTM's: per step two products forward (W_zr, W_h) and two backward, the element-wise
// work in four steps each way, and the recurrent weights' gradients as one product each over
// all T x B rows. Raw float32 device pointers, row-major, contiguous; enqueued on ops
// (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/gru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/gru_window_layout.h.

using GruWindowForwardBuffers = WindowForwardBuffers<GruWindow>;
using GruWindowBackwardBuffers = WindowBackwardBuffers<GruWindow>;

void windowForward(const GruWindowSizes& sizes, const GruWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const GruWindowSizes& sizes, const GruWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
