#pragma once

// The multiplicative RNN's fused window (engine/models/fused_mrnn_window.cpp: Sutskever et
// al. eqs. 7-8, m = (W_mx x) * (W_mh h_{t-1}), h = tanh(W_hx x + W_hm m + b)) for a GPU: per
// step two products and three element-wise steps each way; the recurrent weights' gradients
// as one product each over all T x B rows. Raw float32 device pointers, row-major,
// contiguous; enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/mrnn_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/mrnn_window_layout.h.

// A row of xp is X = M + H floats: [W_mx x | W_hx x + b].
using MrnnWindowForwardBuffers = WindowForwardBuffers<MrnnWindow>;
using MrnnWindowBackwardBuffers = WindowBackwardBuffers<MrnnWindow>;

void windowForward(const MrnnWindowSizes& sizes, const MrnnWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const MrnnWindowSizes& sizes, const MrnnWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
