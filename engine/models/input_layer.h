#pragma once

#include <torch/nn/module.h>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// Symbols to vectors: a linear embedding of set size ("embedding", [V, E]) or the one-hot
// vector itself. Token dropout removes whole vocabulary entries for a window (AWD-LSTM's
// embedding dropout); embedding dropout is variational over the features.
class InputLayer : public torch::nn::Module {
 public:
  InputLayer(const InputConfig& config, int64_t vocab, const DropoutConfig& dropout);

  int64_t vocab() const { return vocab_; }
  int64_t outputSize() const { return embeddingSize_ > 0 ? embeddingSize_ : vocab_; }
  // The [V, E] embedding matrix (undefined for one-hot input); the softmax may tie to it.
  const torch::Tensor& embedding() const { return embedding_; }

  // tokens: [T, B] int64 -> [T, B, outputSize()].
  torch::Tensor forward(const torch::Tensor& tokens);

 private:
  int64_t vocab_;
  int64_t embeddingSize_;
  double tokenDropout_;
  double embeddingDropout_;
  torch::Tensor embedding_;
  torch::Tensor dtypeMarker_;  // empty buffer: follows the module's dtype and device
};

}  // namespace mrnn::engine
