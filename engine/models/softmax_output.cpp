#include "engine/models/softmax_output.h"

#include <torch/torch.h>

#include <cmath>

namespace mrnn::engine {

SoftmaxOutput::SoftmaxOutput(int64_t inputSize, int64_t vocab, const torch::Tensor& tiedEmbedding) {
  if (tiedEmbedding.defined()) {
    weight_ = tiedEmbedding;  // registered by the input layer, not here
  } else {
    weight_ = register_parameter("W", torch::empty({vocab, inputSize}));
    torch::NoGradGuard noGrad;
    const double bound = 1.0 / std::sqrt(static_cast<double>(inputSize));
    weight_.uniform_(-bound, bound);
  }
  bias_ = register_parameter("b", torch::zeros({vocab}));
}

torch::Tensor SoftmaxOutput::forward(const torch::Tensor& h) {
  return torch::log_softmax(torch::linear(h, weight_, bias_), -1);
}

}  // namespace mrnn::engine
