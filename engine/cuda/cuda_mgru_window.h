#pragma once

// The mGRU fused window (engine/models/fused_mgru_window.cpp: Maupome & Meurs eqs. 25-27,
// one intermediate state m shared by the gates) for a GPU: per step three products forward
// (W_mh, [V_z; V_r], V_h) and three backward, and the recurrent weights' gradients as one
// product each over all T x B rows. Raw float32 device pointers, row-major, contiguous;
// enqueued on ops (window_ops.h); failures throw.

#include <cstdint>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/windows/mgru_window_layout.h"

namespace mrnn::engine::cuda {

// The sizes, the buffers and their shapes: engine/windows/mgru_window_layout.h.

// G = 2H + M gate columns [z (H) | r (M) | j (H)]; a row of xp is [W_mx x (M) | U x + b (G)].
using MgruWindowForwardBuffers = WindowForwardBuffers<MgruWindow>;
using MgruWindowBackwardBuffers = WindowBackwardBuffers<MgruWindow>;

void windowForward(const MgruWindowSizes& sizes, const MgruWindowForwardBuffers& buffers,
                   WindowOps& ops);

void windowBackward(const MgruWindowSizes& sizes, const MgruWindowBackwardBuffers& buffers,
                    WindowOps& ops);

}  // namespace mrnn::engine::cuda
