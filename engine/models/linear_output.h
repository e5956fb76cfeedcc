#pragma once

#include "engine/models/output_head.h"

namespace mrnn::engine {

// y = W h + b: real numbers, trained with squared error (output.type: linear). The addition
// problem's target is the sum of two numbers, which no symbol's probability can carry.
class LinearOutput : public OutputHead {
 public:
  LinearOutput(int64_t inputSize, int64_t outputs);
  // h: [T, B, H] -> predictions [T, B, outputs].
  torch::Tensor forward(const torch::Tensor& h) override;

 private:
  torch::Tensor weight_;  // [O, H]
  torch::Tensor bias_;    // [O]
};

}  // namespace mrnn::engine
