#pragma once

#include <torch/nn/module.h>

namespace mrnn::engine {

// Puts a module in eval mode (no dropout masks: analyses must be deterministic) and restores
// its previous mode when the scope ends.
class EvalModeScope {
 public:
  explicit EvalModeScope(torch::nn::Module& module)
      : module_(module), wasTraining_(module.is_training()) {
    module_.eval();
  }
  ~EvalModeScope() { module_.train(wasTraining_); }
  EvalModeScope(const EvalModeScope&) = delete;
  EvalModeScope& operator=(const EvalModeScope&) = delete;

 private:
  torch::nn::Module& module_;
  bool wasTraining_;
};

}  // namespace mrnn::engine
