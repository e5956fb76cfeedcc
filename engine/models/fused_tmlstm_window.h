#pragma once

#include <torch/types.h>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The true mLSTM's recurrence (Maupome & Meurs eqs. 14-17, output gate outside) over a whole
// window as one autograd node with a hand-written backward: per step one product for all
// four intermediate states m_g = (W_mx,g x) * (W_mh,g h), four products m_g V_g^T straight
// into the gate rows, and one raw pass of the gate arithmetic; the weights' gradients as
// products over all T x B rows at the end.
// xp: [T, B, 4M + 4H], the hoisted [W_mx x | W_x x + b]; h0, c0: [B, H]; wMh: [4M, H];
// v: [4, H, M]; mask: [B, H] variational mask on h_{t-1}, or undefined. CPU float32.
FusedWindowResult fusedTmlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                    const torch::Tensor& c0, const torch::Tensor& wMh,
                                    const torch::Tensor& v, const torch::Tensor& mask);

}  // namespace mrnn::engine
