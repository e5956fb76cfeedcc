#pragma once

#include <torch/optim/optimizer.h>

#include "engine/models/language_model.h"
#include "engine/optim/first_order_rule.h"

namespace mrnn::engine {

// One first-order step on one window outside a training run (benchmarks, tests): the
// window's objective (WindowObjective, one process) and firstOrderStep(). The update is
// skipped, leaving the weights as they were, when the loss or the gradient is not finite.
// inputs and targets: [T, B] int64; mask: [T, B] or undefined. `state` becomes the state at
// the window's end (detached).
UpdateResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                              ModelState& state, const torch::Tensor& inputs,
                              const torch::Tensor& targets, const torch::Tensor& mask,
                              double clipNorm, bool bf16);

}  // namespace mrnn::engine
