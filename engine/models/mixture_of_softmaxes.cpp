#include "engine/models/mixture_of_softmaxes.h"

#include <torch/torch.h>

#include <cmath>

namespace mrnn::engine {
namespace {

torch::Tensor uniformParameter(torch::nn::Module& owner, const std::string& name, int64_t rows,
                               int64_t cols) {
  auto weight = owner.register_parameter(name, torch::empty({rows, cols}));
  torch::NoGradGuard noGrad;
  const double bound = 1.0 / std::sqrt(static_cast<double>(cols));
  weight.uniform_(-bound, bound);
  return weight;
}

}  // namespace

MixtureOfSoftmaxes::MixtureOfSoftmaxes(int64_t inputSize, int64_t vocab, int64_t mixtures,
                                       int64_t latentSize, const torch::Tensor& tiedEmbedding)
    : mixtures_(mixtures), latent_(latentSize) {
  prior_ = uniformParameter(*this, "W_prior", mixtures, inputSize);
  latentW_ = uniformParameter(*this, "W_latent", mixtures * latentSize, inputSize);
  latentB_ = register_parameter("b_latent", torch::zeros({mixtures * latentSize}));
  outW_ =
      tiedEmbedding.defined() ? tiedEmbedding : uniformParameter(*this, "W_out", vocab, latentSize);
  outB_ = register_parameter("b_out", torch::zeros({vocab}));
}

torch::Tensor MixtureOfSoftmaxes::forward(const torch::Tensor& h) {
  const auto logPrior = torch::log_softmax(torch::linear(h, prior_), -1);  // [T, B, K]
  auto sizes = h.sizes().vec();
  sizes.back() = mixtures_;
  sizes.push_back(latent_);
  const auto latent = torch::tanh(torch::linear(h, latentW_, latentB_)).view(sizes);  // [T,B,K,L]
  const auto logComponents = torch::log_softmax(torch::linear(latent, outW_, outB_), -1);
  return torch::logsumexp(logComponents + logPrior.unsqueeze(-1), -2);  // [T, B, V]
}

}  // namespace mrnn::engine
