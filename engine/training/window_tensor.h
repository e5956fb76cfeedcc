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

// A window's real values ([T, B, F] row-major, F = size / (T·B)) as a float tensor on
// `device`; undefined when there are none.
inline torch::Tensor valuesTensor(const std::vector<float>& values, int64_t steps, int64_t batch,
                                  const torch::Device& device) {
  if (values.empty()) return {};
  const int64_t features = static_cast<int64_t>(values.size()) / (steps * batch);
  return torch::from_blob(const_cast<float*>(values.data()), {steps, batch, features},
                          torch::kFloat)
      .clone()
      .to(device);
}

}  // namespace mrnn::engine
