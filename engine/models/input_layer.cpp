#include "engine/models/input_layer.h"

#include <torch/torch.h>

#include "engine/models/variational_dropout.h"

namespace mrnn::engine {

InputLayer::InputLayer(const InputConfig& config, int64_t vocab, const DropoutConfig& dropout)
    : vocab_(vocab),
      embeddingSize_(config.embeddingSize),
      tokenDropout_(dropout.token),
      embeddingDropout_(dropout.embedding) {
  dtypeMarker_ = register_buffer("dtype_marker", torch::empty({0}));
  if (embeddingSize_ > 0) {
    embedding_ = register_parameter("embedding", torch::empty({vocab, embeddingSize_}));
    torch::NoGradGuard noGrad;
    embedding_.uniform_(-0.1, 0.1);
  }
}

torch::Tensor InputLayer::forward(const torch::Tensor& tokens) {
  const bool training = is_training();
  const auto options = dtypeMarker_.options();
  // Token dropout: a [V] mask, scaled so the expected input is unchanged.
  const auto tokenMask = variationalMask(training, tokenDropout_, {vocab_}, options);
  torch::Tensor vectors;
  if (embedding_.defined()) {
    const auto table = tokenMask.defined() ? embedding_ * tokenMask.unsqueeze(1) : embedding_;
    vectors = torch::embedding(table, tokens);
  } else {
    vectors = torch::one_hot(tokens, vocab_).to(options.dtype());
    if (tokenMask.defined()) vectors = vectors * tokenMask;
  }
  const auto featureMask =
      variationalMask(training, embeddingDropout_, {tokens.size(1), outputSize()}, options);
  return applyMask(vectors, featureMask);
}

}  // namespace mrnn::engine
