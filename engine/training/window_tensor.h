#pragma once

#include <torch/types.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace mrnn::engine {

// A batcher window's [T, B] row-major values as a tensor on `device` (copied: the window's
// vector does not outlive the step).
template <typename T>
torch::Tensor windowTensor(const std::vector<T>& values, int64_t steps, int64_t batch,
                           const torch::Device& device) {
  const auto dtype = std::is_same<T, float>::value ? torch::kFloat : torch::kLong;
  return torch::from_blob(const_cast<T*>(values.data()), {steps, batch}, dtype).clone().to(device);
}

}  // namespace mrnn::engine
