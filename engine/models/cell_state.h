#pragma once

#include <torch/types.h>

#include <vector>

namespace mrnn::engine {

// The recurrent state of one layer. parts[0] is always the output h ([B, H]); LSTM-family
// cells keep the memory c in parts[1].
struct CellState {
  std::vector<torch::Tensor> parts;

  const torch::Tensor& h() const { return parts.at(0); }
  // Cuts the autograd history at a window boundary (truncated BPTT).
  void detach() {
    for (auto& part : parts) part = part.detach();
  }
};

}  // namespace mrnn::engine
