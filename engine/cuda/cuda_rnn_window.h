#pragma once

// The plain RNN's fused window (engine/models/fused_rnn_window.cpp: h = tanh(W_hx x + b +
// W_hh h_{t-1})) for a GPU: per step one product and two element-wise steps forward (the
// state mask, tanh with the hoisted input joining), one product and two steps backward; W_hh's
// gradient as one product over all T x B rows. Raw float32 device pointers, row-major,
// contiguous; enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/rnn_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/rnn_window_layout.h.

using RnnWindowForwardBuffers = WindowForwardBuffers<RnnWindow>;
using RnnWindowBackwardBuffers = WindowBackwardBuffers<RnnWindow>;

void windowForward(const RnnWindowSizes& sizes, const RnnWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const RnnWindowSizes& sizes, const RnnWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
