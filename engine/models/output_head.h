#pragma once

#include <torch/nn/module.h>

namespace mrnn::engine {

// The layer that turns the top layer's output into next-symbol log-probabilities.
class OutputHead : public torch::nn::Module {
 public:
  // h: [T, B, H] -> log-probabilities [T, B, V].
  virtual torch::Tensor forward(const torch::Tensor& h) = 0;
};

}  // namespace mrnn::engine
