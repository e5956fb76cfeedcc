#pragma once

#include <torch/optim/optimizer.h>

#include "engine/models/language_model.h"

namespace mrnn::engine {

struct StepResult {
  double loss = 0.0;          // mean NLL in nats over the counted targets
  double gradientNorm = 0.0;  // before clipping
  bool applied = false;       // false: loss or gradient not finite, weights untouched
};

// One optimisation step on one window: forward, masked mean negative log-likelihood,
// backward, gradient-norm clipping (clipNorm <= 0: none), optimiser step. The update is
// skipped, leaving the weights as they were, when the loss or the gradient is not finite;
// the caller reports that. inputs and targets: [T, B] int64; mask: [T, B] or undefined.
StepResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                            ModelState& state, const torch::Tensor& inputs,
                            const torch::Tensor& targets, const torch::Tensor& mask,
                            double clipNorm, bool bf16);

}  // namespace mrnn::engine
