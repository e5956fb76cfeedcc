#pragma once

#include <torch/optim/optimizer.h>

#include <vector>

#include "engine/models/language_model.h"

namespace mrnn::engine {

class GradientBuckets;

struct StepResult {
  double loss = 0.0;          // mean NLL in nats over the counted targets
  double gradientNorm = 0.0;  // before clipping
  bool applied = false;       // false: loss or gradient not finite, weights untouched
  // After an applied update: false when it left a weight NaN or infinite (an optimiser
  // epsilon that underflows to 0 divides 0 by 0). The caller must not save such weights.
  bool weightsFinite = true;
};

// One optimisation step on one window: forward, masked mean negative log-likelihood,
// backward, gradient-norm clipping (clipNorm <= 0: none), optimiser step. The update is
// skipped, leaving the weights as they were, when the loss or the gradient is not finite;
// the caller reports that. After the update every weight is checked (weightsFinite).
// inputs and targets: [T, B] int64; mask: [T, B] or undefined.
// True when every element of every tensor is finite.
bool allFinite(const std::vector<torch::Tensor>& tensors);

StepResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                            ModelState& state, const torch::Tensor& inputs,
                            const torch::Tensor& targets, const torch::Tensor& mask,
                            double clipNorm, bool bf16);

struct StepOptions {
  double clipNorm = 0.0;  // <= 0: no clipping
  bool bf16 = false;
  // > 0: the loss is the sum over this window's counted targets divided by `targetCount`, the
  // targets of the whole batch, of which this process holds a share (data parallel); with the
  // shares' gradients summed, that is the whole batch's mean. 0: the mean over this window.
  double targetCount = 0.0;
  // Data parallel: sums the gradients over the ranks between backward and clipping. Every
  // rank then goes through backward and the sums even when its own loss is not finite, so
  // that all ranks take the same decision (the summed gradient is not finite either).
  GradientBuckets* buckets = nullptr;
};
StepResult optimisationStep(LanguageModel& model, torch::optim::Optimizer& optimizer,
                            ModelState& state, const torch::Tensor& inputs,
                            const torch::Tensor& targets, const torch::Tensor& mask,
                            const StepOptions& options);

}  // namespace mrnn::engine
