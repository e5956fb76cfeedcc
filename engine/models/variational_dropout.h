#pragma once

#include <torch/types.h>

namespace mrnn::engine {

// A dropout mask shared across a window (Gal & Ghahramani): Bernoulli(1 - p) / (1 - p) of
// the given shape. Returns an undefined tensor when p is 0 or the model is not training,
// so callers skip the multiply.
torch::Tensor variationalMask(bool training, double p, at::IntArrayRef shape,
                              const torch::TensorOptions& options);

// x * mask with mask broadcast over time: x is [T, B, F], mask [B, F] (undefined: x).
torch::Tensor applyMask(const torch::Tensor& x, const torch::Tensor& mask);

}  // namespace mrnn::engine
