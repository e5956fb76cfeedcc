#pragma once

#include <torch/types.h>

#include <tuple>
#include <vector>

#include "engine/models/fused_window.h"
#include "engine/windows/mogrifier_window_layout.h"

namespace torch::autograd {
struct AutogradContext;
}

namespace mrnn::engine {

// The Mogrifier LSTM's recurrence (Melis et al. 2019 eqs. 1-2, output gate outside) over a
// whole window as one autograd node with a hand-written backward. Nothing can be hoisted
// (x is modulated by h_{t-1} before W_x), so per step the node runs the r small round
// products, the W_x and W_h products and the gate arithmetic on raw floats; every weight's
// gradient (W_x, b, W_h, each round matrix) is one product over all T x B rows at the end
// instead of 2r + 2 small products per step accumulated into full-size buffers.
// x: [T, B, I] (the projection is the identity); h0, c0: [B, H]; wX: [4H, I]; b: [4H];
// wH: [4H, H]; rounds: Q^1, R^2, Q^3, ... in order, each one full matrix ([I, H] for Q,
// [H, I] for R), or with lowRank two, left then right ([rows, k], [k, cols]); zigzag: whether
// round i reads round i-1's result (else the original h_{t-1} or x); mask: [B, H] variational
// mask on h_{t-1}, or undefined. CPU float32 (fusedWindowApplies).
FusedWindowResult fusedMogrifierWindow(const torch::Tensor& x, const torch::Tensor& h0,
                                       const torch::Tensor& c0, const torch::Tensor& wX,
                                       const torch::Tensor& b, const torch::Tensor& wH,
                                       const std::vector<torch::Tensor>& rounds, bool lowRank,
                                       bool zigzag, const torch::Tensor& mask);

// The layout of a window over x ([T, B, I]) with these rounds (each full, or left then right,
// in order) and their data: what the CPU window and the GPU one (cuda_fused_mogrifier_window.cpp)
// read from their tensors.
MogrifierWindowLayout mogrifierWindowLayout(const torch::Tensor& x, const torch::Tensor& wH,
                                            at::TensorList rounds, bool lowRank, bool zigzag);
MogrifierRoundMatrices mogrifierRoundMatrices(at::TensorList rounds, bool lowRank);

// What a Mogrifier window's autograd Function keeps for its backward, the CPU window's and the
// GPU one's alike: the inputs the backward reads, the forward's buffers (named as in
// fused_mogrifier_window.cpp), the round tensors in order and the two flags.
struct MogrifierWindowSaved {
  torch::Tensor x, wX, wH, mask, xR, hR, sX, sH, z, gates, c, tanhC;
  std::vector<torch::Tensor> rounds;
  bool lowRank = false, zigzag = false;

  // The tensors before the rounds, in save order (engine/windows/window_saved.h).
  template <typename Self>
  static auto members(Self& s) {
    return std::tie(s.x, s.wX, s.wH, s.mask, s.xR, s.hR, s.sX, s.sH, s.z, s.gates, s.c, s.tanhC);
  }

  void saveTo(torch::autograd::AutogradContext* ctx) const;
  static MogrifierWindowSaved from(torch::autograd::AutogradContext* ctx);
};

}  // namespace mrnn::engine
