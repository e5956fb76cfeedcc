#include "engine/models/linear_output.h"

#include <torch/torch.h>

#include <cmath>

namespace mrnn::engine {

LinearOutput::LinearOutput(int64_t inputSize, int64_t outputs) {
  weight_ = register_parameter("W", torch::empty({outputs, inputSize}));
  bias_ = register_parameter("b", torch::zeros({outputs}));
  torch::NoGradGuard noGrad;
  const double bound = 1.0 / std::sqrt(static_cast<double>(inputSize));
  weight_.uniform_(-bound, bound);
}

torch::Tensor LinearOutput::forward(const torch::Tensor& h) {
  return torch::linear(h, weight_, bias_);
}

}  // namespace mrnn::engine
