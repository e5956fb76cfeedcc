#include "engine/optim/update_rule_factory.h"

#include "engine/optim/first_order_rule.h"
#include "engine/optim/hessian_free_rule.h"
#include "engine/optim/nt_asgd_rule.h"
#include "engine/optim/optimizer_factory.h"

namespace mrnn::engine {

std::unique_ptr<UpdateRule> makeUpdateRule(const TrainingConfig& training,
                                           std::vector<torch::Tensor> parameters) {
  const OptimizerConfig& config = training.optimizer;
  if (config.kind == OptimizerKind::HessianFree) {
    return std::make_unique<HessianFreeRule>(config.hessianFree, std::move(parameters));
  }
  if (config.kind == OptimizerKind::NtAsgd) {
    return std::make_unique<NtAsgdRule>(
        std::make_unique<NtAsgd>(std::move(parameters), NtAsgdOptions(config.learningRate)
                                                            .weight_decay(config.weightDecay)
                                                            .non_monotone(config.nonMonotone)),
        training.clipNorm);
  }
  return std::make_unique<FirstOrderRule>(makeOptimizer(config, std::move(parameters)),
                                          training.clipNorm);
}

}  // namespace mrnn::engine
