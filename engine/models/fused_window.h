#pragma once

#include <torch/types.h>

#include <initializer_list>

namespace mrnn::engine {

// What a fused window (fused_*_window.h) returns: h for every step and the final state.
struct FusedWindowResult {
  torch::Tensor hs;  // [T, B, H]
  torch::Tensor h;   // the final state
  torch::Tensor c;   // the final cell state (LSTM family; undefined for the others)
};

// Whether the fused windows handle these tensors: all on the CPU in float32, the first
// (the window's projected inputs, [T, B, K]) with at least one step. Anything else runs the
// generic per-step loop.
inline bool fusedWindowApplies(std::initializer_list<torch::Tensor> tensors) {
  for (const auto& t : tensors) {
    if (!t.defined() || !t.device().is_cpu() || t.scalar_type() != torch::kFloat32) return false;
  }
  return tensors.size() > 0 && tensors.begin()->size(0) > 0;
}

}  // namespace mrnn::engine
