#include "engine/training/train_step.h"

#include <torch/torch.h>

#include <cmath>

#include "engine/devices/autocast_scope.h"
#include "engine/training/gradient_buckets.h"

namespace mrnn::engine {

bool allFinite(const std::vector<torch::Tensor>& tensors) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> flags;
  for (const auto& t : tensors) flags.push_back(torch::isfinite(t).all());
  return flags.empty() || torch::stack(flags).all().item<bool>();  // one sync, also on a GPU
}

StepResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                            ModelState& state, const torch::Tensor& inputs,
                            const torch::Tensor& targets, const torch::Tensor& mask,
                            double clipNorm, bool bf16) {
  StepOptions options;
  options.clipNorm = clipNorm;
  options.bf16 = bf16;
  return optimisationStep(model, optimizer, state, inputs, targets, mask, options);
}

StepResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                            ModelState& state, const torch::Tensor& inputs,
                            const torch::Tensor& targets, const torch::Tensor& mask,
                            const StepOptions& options) {
  StepResult result;
  torch::Tensor loss;
  {
    AutocastScope autocast(options.bf16 && inputs.is_cuda());
    const auto logp = model.forward(inputs, state);
    const auto nll = -logp.gather(2, targets.unsqueeze(2)).squeeze(2).to(torch::kFloat);
    if (options.targetCount > 0.0) {
      loss = (mask.defined() ? (nll * mask).sum() : nll.sum()) / options.targetCount;
    } else {
      loss = mask.defined() ? (nll * mask).sum() / mask.sum().clamp_min(1.0) : nll.mean();
    }
  }
  result.loss = loss.item<double>();
  if (!std::isfinite(result.loss) && !options.buckets) return result;
  optimizer.zero_grad();
  if (options.buckets) options.buckets->arm();
  loss.backward();
  if (options.buckets) options.buckets->finish();
  result.gradientNorm = torch::nn::utils::clip_grad_norm_(
      model.parameters(), options.clipNorm > 0 ? options.clipNorm : 1e30);
  if (!std::isfinite(result.gradientNorm)) return result;
  optimizer.step();
  result.applied = true;
  result.weightsFinite = allFinite(model.parameters());
  return result;
}

}  // namespace mrnn::engine
