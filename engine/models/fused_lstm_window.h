#pragma once

#include <torch/types.h>

#include <vector>

#include "engine/models/fused_window.h"

namespace mrnn::engine {

// The LSTM recurrence (Krause eqs. 11-16, output gate outside) over a whole window as one
// autograd node with a hand-written backward, for the LSTM: per step one product and one raw pass
// of the gate arithmetic, and the recurrent weight's gradient as one product over all T x B rows at
// the end. xp: [T, B, 4H], the hoisted W_x x + b (contiguous rows; it may be a column block of a
// wider tensor); h0, c0: [B, H]; wH: [4H, H]; mask: [B, H]
// variational mask on h_{t-1}, or undefined. CPU float32 (fusedWindowApplies).
FusedWindowResult fusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& c0, const torch::Tensor& wH,
                                  const torch::Tensor& mask);

// Independent LSTMs side by side in one window, each with its own W_h (the Major-Minor
// LSTM's major and minor): block j has the next wH[j].size(1) units of h and c and the next
// 4 wH[j].size(1) columns of xp, gates ordered i f o j within the block. One window instead of
// one per block: each step's products of all blocks split over the threads together, and
// the outputs come out side by side, without a copy of the projection or of the states.
FusedWindowResult fusedBlockLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0,
                                       const std::vector<torch::Tensor>& wH,
                                       const torch::Tensor& mask);

}  // namespace mrnn::engine
