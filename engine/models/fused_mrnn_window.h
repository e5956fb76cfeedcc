#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The multiplicative RNN's recurrence (Sutskever eqs. 7-8) over a whole window as one
// autograd node with a hand-written backward: per step two products, the factor product
// m = (W_mx x) * (W_mh h) and one tanh pass; the two recurrent weights' gradients as one
// product each over all T x B rows at the end.
// xp: [T, B, M + H], the hoisted [W_mx x | W_hx x + b]; h0: [B, H]; wMh: [M, H];
// wHm: [H, M]; mask: [B, H] variational mask on h_{t-1}, or undefined. CPU float32
// (fusedWindowApplies). The result has no c.
FusedWindowResult fusedMrnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& wMh, const torch::Tensor& wHm,
                                  const torch::Tensor& mask);

}  // namespace mrnn::engine
