#pragma once

#include <torch/nn/module.h>
#include <torch/types.h>

namespace mrnn::engine {

// Puts a model in eval mode (no dropout: analyses are deterministic) without gradients for a
// scope, and restores its mode afterwards, also when an analysis is cancelled halfway
// (JobContext::report throws). Every analysis opens one.
class EvalModeGuard {
 public:
  explicit EvalModeGuard(torch::nn::Module& model)
      : model_(model), wasTraining_(model.is_training()) {
    model_.eval();
  }
  ~EvalModeGuard() { model_.train(wasTraining_); }
  EvalModeGuard(const EvalModeGuard&) = delete;
  EvalModeGuard& operator=(const EvalModeGuard&) = delete;

 private:
  torch::nn::Module& model_;
  bool wasTraining_;
  torch::NoGradGuard noGrad_;
};

}  // namespace mrnn::engine
