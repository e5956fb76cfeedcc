#pragma once

#include <torch/optim/optimizer.h>

#include <cstdint>
#include <vector>

namespace mrnn::engine {

// Krause et al. (mLSTM), eq. 22: RMSprop with normalised updates. `lr` is the update length
// ℓ before decay: the step taken after t steps has length lr * length_decay^t.
struct RmspropNormalizedOptions
    : public torch::optim::OptimizerCloneableOptions<RmspropNormalizedOptions> {
  RmspropNormalizedOptions(double lr = 0.1);
  TORCH_ARG(double, lr) = 0.1;
  TORCH_ARG(double, length_decay) = 1.0;  // ℓ *= length_decay after every step
  TORCH_ARG(double, alpha) = 0.99;        // decay of the squared-gradient average
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0.0;  // L2 added to the gradient, as in RMSprop

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct RmspropNormalizedParamState
    : public torch::optim::OptimizerCloneableParamState<RmspropNormalizedParamState> {
  TORCH_ARG(torch::Tensor, square_avg);

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
};

// Every step computes RMSprop's direction v* = g / (sqrt(E[g²]) + eps) for all parameters of
// a group, then rescales the whole concatenated vector to length ℓ: v = ℓ v* / |v*|. The
// length, not the gradient's size, sets the step (the paper likens it to gradient-norm
// clipping with a very high learning rate). makeOptimizer builds one group, so the norm is
// over the whole model. The step count (hence ℓ) is saved with the state, so a resumed run
// takes exactly the steps an uninterrupted one would.
class RmspropNormalized : public torch::optim::Optimizer {
 public:
  explicit RmspropNormalized(std::vector<torch::Tensor> params,
                             RmspropNormalizedOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;

  int64_t stepCount() const { return steps_; }
  // The length the next update of group `group` will have: lr * length_decay^stepCount().
  double nextUpdateLength(size_t group = 0) const;

 private:
  int64_t steps_ = 0;
};

}  // namespace mrnn::engine
