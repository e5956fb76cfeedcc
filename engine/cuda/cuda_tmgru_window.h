#pragma once

// The true mGRU fused window (engine/models/fused_tmgru_window.cpp: Maupome & Meurs eqs.
// 22-24, one intermediate state per gate, the candidate's read through r * h) for a GPU. Per
// step five products forward (W_mh_zr, V_z, V_r, W_mh_h, V_h) and five backward; the
// recurrent weights' gradients as one product each over all T x B rows at the end. Raw
// float32 device pointers, row-major, contiguous; enqueued on ops (window_ops.h); failures
// throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/tmgru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/tmgru_window_layout.h.

// A row of xp is X = 3M + 3H floats: [W_mx x (z r h, M each) | U x + b (z r j, H each)].
using TmgruWindowForwardBuffers = WindowForwardBuffers<TmgruWindow>;
using TmgruWindowBackwardBuffers = WindowBackwardBuffers<TmgruWindow>;

void windowForward(const TmgruWindowSizes& sizes, const TmgruWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const TmgruWindowSizes& sizes, const TmgruWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
