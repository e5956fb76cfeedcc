#pragma once

#include "engine/models/output_head.h"

namespace mrnn::engine {

// log softmax(W h + b). Tied (Press & Wolf; Inan et al.): W is the input embedding [V, E],
// so H must equal E; only the bias is the head's own.
class SoftmaxOutput : public OutputHead {
 public:
  SoftmaxOutput(int64_t inputSize, int64_t vocab, const torch::Tensor& tiedEmbedding);
  torch::Tensor forward(const torch::Tensor& h) override;

 private:
  torch::Tensor weight_;  // own [V, H], or the embedding when tied
  torch::Tensor bias_;
};

}  // namespace mrnn::engine
