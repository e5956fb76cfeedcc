#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The true mGRU's recurrence (Maupome & Meurs eqs. 22-24, eq. 23's bracket corrected) over a
// whole window as one autograd node with a hand-written backward, so that the gate arithmetic
// runs as one raw-float pass per step instead of some twenty LibTorch ops and graph nodes, and
// the recurrent weights' gradients are one product each over all T x B rows at the end.
// Per step five products forward (W_mh_zr, V_z, V_r, W_mh_h, V_h) and five backward.
// xp: [T, B, 3M + 3H], the hoisted inputs (W_mx x, rows z, r, h | U x + b, rows z, r, j);
// h0: [B, H]; wMhZr: [2M, H] (W_mh,z; W_mh,r); wMhH: [M, H]; v: [3, H, M] (V_z, V_r, V_h);
// mask: [B, H] variational mask on h_{t-1} where it enters W_mh_zr and r * h (the update
// (1 - z) * h_prev reads it unmasked), or undefined. CPU float32 (fusedWindowApplies). The
// result has no c.
FusedWindowResult fusedTmgruWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& wMhZr, const torch::Tensor& wMhH,
                                   const torch::Tensor& v, const torch::Tensor& mask);

}  // namespace mrnn::engine
