#pragma once

// The true mLSTM fused window (engine/models/fused_tmlstm_window.cpp: Maupome & Meurs eqs.
// 14-17, one intermediate state per gate, output gate outside) for a GPU. Per step five
// products forward (W_mh for all four gates at once, then each gate's V_g) and five backward,
// three element-wise steps each way; the recurrent weights' gradients as one product each
// over all T x B rows at the end. Raw float32 device pointers, row-major, contiguous;
// enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/tmlstm_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/tmlstm_window_layout.h.

// A row of xp is X = 4M + 4H floats: [W_mx x (i f o j, M each) | W_x x + b (i f o j)].
using TmlstmWindowForwardBuffers = WindowForwardBuffers<TmlstmWindow>;
using TmlstmWindowBackwardBuffers = WindowBackwardBuffers<TmlstmWindow>;

void windowForward(const TmlstmWindowSizes& sizes, const TmlstmWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const TmlstmWindowSizes& sizes, const TmlstmWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
