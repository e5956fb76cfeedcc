#pragma once

#include <torch/types.h>

#include <memory>
#include <vector>

#include "engine/config/training_config.h"
#include "engine/optim/update_rule.h"

namespace mrnn::engine {

// The update rule a training section names, over `parameters`: a first-order optimiser
// (NT-ASGD with its validation trigger and averaged weights) or Hessian-free.
std::unique_ptr<UpdateRule> makeUpdateRule(const TrainingConfig& training,
                                           std::vector<torch::Tensor> parameters);

}  // namespace mrnn::engine
