#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The mGRU's recurrence with a shared intermediate state (Maupome & Meurs eqs. 25-27) over a
// whole window as one autograd node with a hand-written backward, so that the gate arithmetic
// runs as one raw-float pass per step instead of a dozen LibTorch ops and graph nodes, and
// the recurrent weights' gradients are one product each over all T x B rows at the end.
// Per step three products forward (W_mh, [V_z; V_r], V_h) and three backward.
// xp: [T, B, 2M + 2H], the hoisted inputs (W_mx x | U x + b, rows z [H], r [M], j [H]);
// h0: [B, H]; wMh: [M, H]; vZr: [H + M, M] (V_z; V_r); vH: [H, M]; mask: [B, H]
// variational mask on h_{t-1} where it enters W_mh (the update (1 - z) * h_prev reads it
// unmasked), or undefined. CPU float32 (fusedWindowApplies). The result has no c.
FusedWindowResult fusedMgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& wMh, const torch::Tensor& vZr,
                                  const torch::Tensor& vH, const torch::Tensor& mask);

}  // namespace mrnn::engine
