#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The tanh RNN's recurrence (Sutskever eq. 1) over a whole window as one autograd node with a
// hand-written backward: per step one product and one tanh pass, and the recurrent weight's
// gradient as one product over all T x B rows at the end.
// xp: [T, B, H], the hoisted W_hx x + b; h0: [B, H]; wHh: [H, H]; mask: [B, H] variational
// mask on h_{t-1}, or undefined. CPU float32 (fusedWindowApplies). The result has no c.
FusedWindowResult fusedRnnWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                 const torch::Tensor& wHh, const torch::Tensor& mask);

}  // namespace mrnn::engine
