#pragma once

#include <c10/core/GradMode.h>
#include <torch/types.h>

#include <initializer_list>
#include <vector>

namespace mrnn::engine {

// What a fused window (fused_*_window.h) returns: h for every step and the final state.
struct FusedWindowResult {
  torch::Tensor hs;  // [T, B, H]
  torch::Tensor h;   // the final state
  torch::Tensor c;   // the final cell state (LSTM family; undefined for the others)
};

// A window's inputs (its layout's Inputs, engine/windows) as LibTorch tensors.
template <typename Window>
using WindowTensors = typename Window::template Inputs<torch::Tensor>;

// Whether the fused windows handle these tensors: all on the CPU in float32, the first
// (the window's projected inputs, [T, B, K]) with at least one step. Anything else runs the
// generic per-step loop.
inline bool fusedWindowApplies(std::initializer_list<torch::Tensor> tensors) {
  for (const auto& t : tensors) {
    if (!t.defined() || !t.device().is_cpu() || t.scalar_type() != torch::kFloat32) return false;
  }
  return tensors.size() > 0 && tensors.begin()->size(0) > 0;
}

// Whether a window's backward will run: gradients are on and one input asks for one. Without,
// a window keeps none of its buffers for it (evaluation, sampling).
inline bool windowNeedsBackward(const std::vector<torch::Tensor>& inputs) {
  if (!c10::GradMode::is_enabled()) return false;
  for (const auto& t : inputs) {
    if (t.requires_grad()) return true;
  }
  return false;
}
inline bool windowNeedsBackward(std::initializer_list<torch::Tensor> inputs) {
  return windowNeedsBackward(std::vector<torch::Tensor>(inputs));
}

// The state mask as the windows take it: [B, H] contiguous, or an empty tensor for none
// (an autograd Function's inputs are tensors, never undefined ones).
inline torch::Tensor windowMask(const torch::Tensor& mask, const torch::Tensor& h0) {
  return mask.defined() ? mask.expand_as(h0).contiguous() : torch::empty({0}, h0.options());
}

// A GPU window's input as the kernels read it: float32 (under bf16 autocast the projections
// arrive as bfloat16; autograd casts their gradients back) and contiguous.
inline torch::Tensor windowInput(const torch::Tensor& t) {
  return t.to(torch::kFloat).contiguous();
}

// A float tensor's data, or null for an undefined or empty one (no mask, an output whose
// gradient nothing asked for).
inline const float* dataOrNull(const torch::Tensor& t) {
  return t.defined() && t.numel() > 0 ? t.data_ptr<float>() : nullptr;
}

// The gradient reaching a final state, as a buffer the backward pass carries and overwrites:
// a copy of it, or zeros where nothing used that state.
inline torch::Tensor carriedGradient(const torch::Tensor& grad, int64_t rows, int64_t cols,
                                     const torch::TensorOptions& options) {
  return grad.defined() ? grad.contiguous().clone() : torch::zeros({rows, cols}, options);
}

// The gradient reaching every step's h, contiguous, or undefined where nothing used it.
inline torch::Tensor stepsGradient(const torch::Tensor& grad) {
  return grad.defined() ? grad.contiguous() : torch::Tensor();
}

}  // namespace mrnn::engine
