#include "engine/optim/optimizer_factory.h"

#include <torch/torch.h>

#include <stdexcept>
#include <tuple>

#include "engine/optim/nt_asgd.h"
#include "engine/optim/optimizer_state_key.h"
#include "engine/optim/rmsprop_normalized.h"

namespace mrnn::engine {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& config,
                                                       std::vector<torch::Tensor> parameters) {
  using namespace torch::optim;
  const double lr = config.learningRate;
  switch (config.kind) {
    case OptimizerKind::Adam:
      return std::make_unique<Adam>(std::move(parameters),
                                    AdamOptions(lr)
                                        .betas(std::make_tuple(config.beta1, config.beta2))
                                        .eps(config.epsilon)
                                        .weight_decay(config.weightDecay));
    case OptimizerKind::AdamW:
      return std::make_unique<AdamW>(std::move(parameters),
                                     AdamWOptions(lr)
                                         .betas(std::make_tuple(config.beta1, config.beta2))
                                         .eps(config.epsilon)
                                         .weight_decay(config.weightDecay));
    case OptimizerKind::Rmsprop:
      return std::make_unique<RMSprop>(std::move(parameters),
                                       RMSpropOptions(lr)
                                           .alpha(config.alpha)
                                           .eps(config.epsilon)
                                           .momentum(config.momentum)
                                           .weight_decay(config.weightDecay));
    case OptimizerKind::Sgd:
      return std::make_unique<SGD>(
          std::move(parameters),
          SGDOptions(lr).momentum(config.momentum).weight_decay(config.weightDecay));
    case OptimizerKind::RmspropNormalized:
      // The update length is this optimiser's learning rate (see training_config.h).
      return std::make_unique<RmspropNormalized>(std::move(parameters),
                                                 RmspropNormalizedOptions(config.updateLength)
                                                     .length_decay(config.updateLengthDecay)
                                                     .alpha(config.alpha)
                                                     .eps(config.epsilon)
                                                     .weight_decay(config.weightDecay));
    case OptimizerKind::NtAsgd:
      return std::make_unique<NtAsgd>(
          std::move(parameters),
          NtAsgdOptions(lr).weight_decay(config.weightDecay).non_monotone(config.nonMonotone));
    case OptimizerKind::HessianFree:
      // An update rule of its own (HessianFreeRule, makeUpdateRule), not a torch optimiser.
      throw std::invalid_argument("hessian_free is not a first-order optimiser");
  }
  TORCH_CHECK(false, "unknown optimizer kind");
}

// Every options type here (torch's four and ours) implements get_lr/set_lr.
double learningRate(const torch::optim::Optimizer& optimizer) {
  if (optimizer.param_groups().empty()) return optimizer.defaults().get_lr();
  return optimizer.param_groups().front().options().get_lr();
}

void setLearningRate(torch::optim::Optimizer& optimizer, double rate) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(rate);
  optimizer.defaults().set_lr(rate);  // for groups added later
}

namespace {

void follow(torch::Tensor& tensor, const torch::Tensor& parameter) {
  if (tensor.defined() && tensor.device() != parameter.device()) {
    tensor = tensor.to(parameter.device());
  }
}

}  // namespace

void moveStateToParameterDevices(torch::optim::Optimizer& optimizer) {
  using namespace torch::optim;
  for (auto& group : optimizer.param_groups()) {
    for (const auto& p : group.params()) {
      const auto found = optimizer.state().find(optimizerStateKey(p));
      if (found == optimizer.state().end()) continue;
      OptimizerParamState* state = found->second.get();
      if (auto* adam = dynamic_cast<AdamParamState*>(state)) {
        follow(adam->exp_avg(), p);
        follow(adam->exp_avg_sq(), p);
        follow(adam->max_exp_avg_sq(), p);
      } else if (auto* adamw = dynamic_cast<AdamWParamState*>(state)) {
        follow(adamw->exp_avg(), p);
        follow(adamw->exp_avg_sq(), p);
        follow(adamw->max_exp_avg_sq(), p);
      } else if (auto* rms = dynamic_cast<RMSpropParamState*>(state)) {
        follow(rms->square_avg(), p);
        follow(rms->momentum_buffer(), p);
        follow(rms->grad_avg(), p);
      } else if (auto* sgd = dynamic_cast<SGDParamState*>(state)) {
        follow(sgd->momentum_buffer(), p);
      } else if (auto* normalized = dynamic_cast<RmspropNormalizedParamState*>(state)) {
        follow(normalized->square_avg(), p);
      } else if (auto* asgd = dynamic_cast<NtAsgdParamState*>(state)) {
        follow(asgd->average(), p);
      }
    }
  }
}

}  // namespace mrnn::engine
