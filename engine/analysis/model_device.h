#pragma once

#include <torch/nn/module.h>
#include <torch/types.h>

namespace mrnn::engine {

// Where a model's weights are (the CPU, or a GPU after placeForAnalysis / Module::to): the
// analyses build their inputs, targets, masks and index tensors there, and bring back to the
// CPU only what they read element by element. A model without parameters counts as on the CPU.
inline torch::Device modelDevice(const torch::nn::Module& model) {
  const auto parameters = model.parameters();
  return parameters.empty() ? torch::Device(torch::kCPU) : parameters.front().device();
}

}  // namespace mrnn::engine
