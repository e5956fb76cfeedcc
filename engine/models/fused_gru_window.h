#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The GRU's recurrence (Maupome & Meurs eqs. 18-21) over a whole window as one autograd node
// with a hand-written backward, so that the gate arithmetic runs as one raw-float pass per
// step instead of a dozen LibTorch ops and graph nodes, and the recurrent weights' gradients
// are one product each over all T x B rows at the end instead of T small ones.
// Per step two products forward (W_zr, W_h) and two backward.
// xp: [T, B, 3H], the hoisted U x + b (rows z, r, j); h0: [B, H]; wZr: [2H, H] (W_z; W_r);
// wH: [H, H]; mask: [B, H] variational mask on h_{t-1} where it enters W_zr and r * h (the
// update (1 - z) * h_prev reads it unmasked), or undefined. CPU float32
// (fusedWindowApplies). The result has no c.
FusedWindowResult fusedGruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                 const torch::Tensor& wZr, const torch::Tensor& wH,
                                 const torch::Tensor& mask);

}  // namespace mrnn::engine
