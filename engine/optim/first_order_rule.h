#pragma once

#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "engine/optim/update_rule.h"

namespace mrnn::engine {

// True when every element of every tensor is finite.
bool allFinite(const std::vector<torch::Tensor>& tensors);

// One first-order step on `objective`: its loss and gradient, gradient-norm clipping
// (clipNorm <= 0: none), `optimizer`'s step. The update is skipped, leaving the weights as
// they were, when the loss or the gradient is not finite; after an update every weight is
// checked (UpdateResult::weightsFinite).
UpdateResult firstOrderStep(Objective& objective, torch::optim::Optimizer& optimizer,
                            double clipNorm);

// A torch::optim optimiser (Adam, AdamW, RMSprop, SGD, RMSprop with normalised updates) as an
// update rule: one window per update, the schedule's learning rate, its state kept under
// "optimizer" in checkpoints.
class FirstOrderRule : public UpdateRule {
 public:
  FirstOrderRule(std::unique_ptr<torch::optim::Optimizer> optimizer, double clipNorm);

  UpdateResult update(Objective& objective, double learningRate) override;
  std::string archiveKey() const override { return "optimizer"; }
  void save(torch::serialize::OutputArchive& archive) const override;
  // Moves the loaded state to the parameters' devices (a checkpoint is read onto the CPU).
  void load(torch::serialize::InputArchive& archive) override;

  torch::optim::Optimizer& optimizer() { return *optimizer_; }

 private:
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  double clipNorm_;
};

}  // namespace mrnn::engine
