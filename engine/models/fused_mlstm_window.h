#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The mLSTM recurrence (Krause eqs. 17-21, output gate outside) over a whole window as one
// autograd node with a hand-written backward, so that
//  - the element-wise gate arithmetic runs as one pass per step on raw floats instead of a
//    dozen LibTorch ops, each allocating its result and a graph node;
//  - the recurrent weights' gradients are two large matrix products over all T x B rows at
//    the end, instead of T small products accumulated into full-size buffers (the autograd
//    loop's dominant memory traffic).
// xp: [T, B, M + 4H], the hoisted input projections (W_mx x | W_x x + b); h0, c0: [B, H];
// wMh: [M, H]; wM: [4H, M]; mask: [B, H] variational mask on h_{t-1}, or an empty tensor.
// CPU float32 (fusedWindowApplies); other inputs are for the generic loop.
FusedWindowResult fusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& c0, const torch::Tensor& wMh,
                                   const torch::Tensor& wM, const torch::Tensor& mask);

}  // namespace mrnn::engine
