#pragma once

#include <torch/nn/module.h>

#include "engine/config/model_config.h"
#include "engine/models/window_masks.h"

namespace mrnn::engine {

// Symbols to vectors: a linear embedding of set size ("embedding", [V, E]) or the one-hot
// vector itself, and after it the real-valued inputs of a model that reads them
// (input.values: the addition problem's numbers). Token dropout removes whole vocabulary
// entries for a window (AWD-LSTM's embedding dropout); embedding dropout is variational over
// the symbol's features.
class InputLayer : public torch::nn::Module {
 public:
  InputLayer(const InputConfig& config, int64_t vocab, const DropoutConfig& dropout);

  int64_t vocab() const { return vocab_; }
  int64_t outputSize() const { return (embeddingSize_ > 0 ? embeddingSize_ : vocab_) + values_; }
  // The [V, E] embedding matrix (undefined for one-hot input); the softmax may tie to it.
  const torch::Tensor& embedding() const { return embedding_; }

  // tokens: [T, B] int64 -> [T, B, outputSize()]. `masks`: replay the window's dropout masks.
  // `values` [T, B, input.values]: the real inputs (a model that reads none: undefined).
  torch::Tensor forward(const torch::Tensor& tokens, WindowMasks* masks = nullptr,
                        const torch::Tensor& values = {});

 private:
  int64_t vocab_;
  int64_t embeddingSize_;
  int64_t values_;
  double tokenDropout_;
  double embeddingDropout_;
  torch::Tensor embedding_;
  torch::Tensor dtypeMarker_;  // empty buffer: follows the module's dtype and device
};

}  // namespace mrnn::engine
