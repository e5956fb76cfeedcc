#include "engine/models/input_layer.h"

#include <torch/torch.h>

#include <stdexcept>
#include <string>

#include "engine/models/variational_dropout.h"

namespace mrnn::engine {

InputLayer::InputLayer(const InputConfig& config, int64_t vocab, const DropoutConfig& dropout)
    : vocab_(vocab),
      embeddingSize_(config.embeddingSize),
      values_(config.values),
      tokenDropout_(dropout.token),
      embeddingDropout_(dropout.embedding) {
  dtypeMarker_ = register_buffer("dtype_marker", torch::empty({0}));
  if (embeddingSize_ > 0) {
    embedding_ = register_parameter("embedding", torch::empty({vocab, embeddingSize_}));
    torch::NoGradGuard noGrad;
    embedding_.uniform_(-0.1, 0.1);
  }
}

torch::Tensor InputLayer::forward(const torch::Tensor& tokens, WindowMasks* masks,
                                  const torch::Tensor& values) {
  const bool training = is_training();
  const auto options = dtypeMarker_.options();
  // Token dropout: a [V] mask, scaled so the expected input is unchanged.
  const auto tokenMask = nextMask(
      masks, false, [&] { return variationalMask(training, tokenDropout_, {vocab_}, options); });
  torch::Tensor vectors;
  if (embedding_.defined()) {
    const auto table = tokenMask.defined() ? embedding_ * tokenMask.unsqueeze(1) : embedding_;
    vectors = torch::embedding(table, tokens);
  } else {
    vectors = torch::one_hot(tokens, vocab_).to(options.dtype());
    if (tokenMask.defined()) vectors = vectors * tokenMask;
  }
  const int64_t symbolWidth = outputSize() - values_;
  const auto featureMask = nextMask(masks, true, [&] {
    return variationalMask(training, embeddingDropout_, {tokens.size(1), symbolWidth}, options);
  });
  const auto symbols = applyMask(vectors, featureMask);
  if (values_ == 0) return symbols;
  if (!values.defined() || values.dim() != 3 || values.size(0) != tokens.size(0) ||
      values.size(1) != tokens.size(1) || values.size(2) != values_) {
    throw std::invalid_argument("the model reads " + std::to_string(values_) +
                                " real values beside each symbol (model.input.values); this "
                                "data gives none");
  }
  return torch::cat({symbols, values.to(symbols.options())}, 2);
}

}  // namespace mrnn::engine
