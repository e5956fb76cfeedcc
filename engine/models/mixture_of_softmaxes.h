#pragma once

#include "engine/models/output_head.h"

namespace mrnn::engine {

// Mixture of Softmaxes (Yang et al. 2017), as the Major-Minor LSTM and Mogrifier papers use:
//   pi = softmax(W_pi h)                       (K mixture weights, no bias)
//   g_k = tanh(W_g,k h + b_g,k)                (K latent vectors of width L)
//   p(y | h) = sum_k pi_k softmax(W_out g_k + b_out)
// computed in log space with logsumexp. Tied: W_out is the input embedding and L = E.
class MixtureOfSoftmaxes : public OutputHead {
 public:
  MixtureOfSoftmaxes(int64_t inputSize, int64_t vocab, int64_t mixtures, int64_t latentSize,
                     const torch::Tensor& tiedEmbedding);
  torch::Tensor forward(const torch::Tensor& h) override;

 private:
  int64_t mixtures_;
  int64_t latent_;
  torch::Tensor prior_;    // [K, H]
  torch::Tensor latentW_;  // [K * L, H]
  torch::Tensor latentB_;  // [K * L]
  torch::Tensor outW_;     // [V, L] (own or tied)
  torch::Tensor outB_;     // [V]
};

}  // namespace mrnn::engine
