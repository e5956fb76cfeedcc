#include "engine/models/variational_dropout.h"

#include <torch/torch.h>

namespace mrnn::engine {

torch::Tensor variationalMask(bool training, double p, at::IntArrayRef shape,
                              const torch::TensorOptions& options) {
  if (!training || p <= 0.0) return {};
  return torch::bernoulli(torch::full(shape, 1.0 - p, options)) / (1.0 - p);
}

torch::Tensor applyMask(const torch::Tensor& x, const torch::Tensor& mask) {
  return mask.defined() ? x * mask.unsqueeze(0) : x;
}

}  // namespace mrnn::engine
