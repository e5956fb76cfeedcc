#include "engine/models/recurrent_weight.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

namespace mrnn::engine {

RecurrentWeight::RecurrentWeight(torch::nn::Module& owner, const std::string& name, int64_t blocks,
                                 int64_t rows, int64_t cols, Layout layout, bool weightNorm)
    : name_(name), blocks_(blocks), rows_(rows), cols_(cols), layout_(layout) {
  v_ = owner.register_parameter(name, torch::empty({blocks, rows, cols}));
  if (weightNorm) g_ = owner.register_parameter(name + "_g", torch::ones({blocks, rows, 1}));
}

void RecurrentWeight::initOrthogonal(double scale) {
  torch::NoGradGuard noGrad;
  for (int64_t b = 0; b < blocks_; ++b) {
    auto block = v_[b];
    torch::nn::init::orthogonal_(block);
    block.mul_(scale);
  }
  resetGain();
}

void RecurrentWeight::initUniform(double scale) {
  torch::NoGradGuard noGrad;
  const double bound = scale / std::sqrt(static_cast<double>(cols_));
  v_.uniform_(-bound, bound);
  resetGain();
}

void RecurrentWeight::initSparse(double scale, int64_t connections) {
  torch::NoGradGuard noGrad;
  const int64_t kept = std::min(connections, cols_);
  const double deviation = scale / std::sqrt(static_cast<double>(kept));
  v_.zero_();
  for (int64_t b = 0; b < blocks_; ++b) {
    for (int64_t r = 0; r < rows_; ++r) {
      const auto columns = torch::randperm(cols_, torch::kLong).narrow(0, 0, kept);
      auto row = v_[b][r];
      row.index_copy_(0, columns, torch::randn({kept}, row.options()) * deviation);
    }
  }
  resetGain();
}

void RecurrentWeight::resetGain() {
  if (!g_.defined()) return;
  torch::NoGradGuard noGrad;
  g_.copy_(v_.norm(2, {2}, /*keepdim=*/true));
}

void RecurrentWeight::prepare(bool training, double dropProbability, WindowMasks* masks) {
  torch::Tensor w = v_;
  if (g_.defined()) w = g_ * v_ / v_.norm(2, {2}, /*keepdim=*/true);
  if (training && dropProbability > 0.0) {
    const auto keep = nextMask(masks, false, [&] {
      torch::NoGradGuard noGrad;
      return torch::bernoulli(torch::full_like(w, 1.0 - dropProbability));
    });
    w = w * keep / (1.0 - dropProbability);
  }
  current_ = layout_ == Layout::Stacked ? w.reshape({blocks_ * rows_, cols_}) : w;
}

}  // namespace mrnn::engine
