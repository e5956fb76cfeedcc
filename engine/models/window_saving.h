#pragma once

// A fused window's saved-buffer struct (engine/windows/window_saved.h) in and out of a LibTorch
// autograd context, and as the raw pointers the GPU windows read: one implementation for every
// cell's CPU window and GPU glue.

#include <torch/csrc/autograd/custom_function.h>
#include <torch/types.h>

#include "engine/models/fused_window.h"
#include "engine/windows/window_saved.h"

namespace mrnn::engine {

template <typename Saved>
void saveWindow(torch::autograd::AutogradContext* ctx, const Saved& saved) {
  torch::autograd::variable_list list;
  forEachSaved(saved, [&](const torch::Tensor& t) { list.push_back(t); });
  ctx->save_for_backward(list);
}

template <typename Saved>
Saved savedWindow(torch::autograd::AutogradContext* ctx) {
  const auto list = ctx->get_saved_variables();
  Saved saved;
  size_t i = 0;
  forEachSaved(saved, [&](torch::Tensor& t) { t = list.at(i++); });
  return saved;
}

// The saved tensors' data, null for an empty one (no mask).
template <template <typename> class Saved>
Saved<const float*> savedData(const Saved<torch::Tensor>& saved) {
  Saved<const float*> data{};
  forEachSavedPair(saved, data, [](const torch::Tensor& t, const float*& p) { p = dataOrNull(t); });
  return data;
}

}  // namespace mrnn::engine
