#include "engine/optim/first_order_rule.h"

#include <torch/torch.h>

#include <cmath>

#include "engine/optim/optimizer_factory.h"

namespace mrnn::engine {

bool allFinite(const std::vector<torch::Tensor>& tensors) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> flags;
  for (const auto& t : tensors) flags.push_back(torch::isfinite(t).all());
  return flags.empty() || torch::stack(flags).all().item<bool>();  // one sync, also on a GPU
}

UpdateResult firstOrderStep(Objective& objective, torch::optim::Optimizer& optimizer,
                            double clipNorm) {
  UpdateResult result;
  result.loss = objective.lossAndGradient();
  const auto& parameters = objective.parameters();
  // A non-finite loss on one process skipped the backward: the grads are zeros, the norm 0.
  result.gradientNorm =
      torch::nn::utils::clip_grad_norm_(parameters, clipNorm > 0 ? clipNorm : 1e30);
  if (!std::isfinite(result.loss) || !std::isfinite(result.gradientNorm)) return result;
  optimizer.step();
  result.applied = true;
  result.weightsFinite = allFinite(parameters);
  return result;
}

FirstOrderRule::FirstOrderRule(std::unique_ptr<torch::optim::Optimizer> optimizer, double clipNorm)
    : optimizer_(std::move(optimizer)), clipNorm_(clipNorm) {}

UpdateResult FirstOrderRule::update(Objective& objective, double learningRate) {
  setLearningRate(*optimizer_, learningRate);
  return firstOrderStep(objective, *optimizer_, clipNorm_);
}

void FirstOrderRule::save(torch::serialize::OutputArchive& archive) const {
  optimizer_->save(archive);
}

void FirstOrderRule::load(torch::serialize::InputArchive& archive) {
  optimizer_->load(archive);
  moveStateToParameterDevices(*optimizer_);
}

}  // namespace mrnn::engine
