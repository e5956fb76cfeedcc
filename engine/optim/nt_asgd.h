#pragma once

#include <torch/optim/optimizer.h>

#include <cstdint>
#include <vector>

namespace mrnn::engine {

struct NtAsgdOptions : public torch::optim::OptimizerCloneableOptions<NtAsgdOptions> {
  NtAsgdOptions(double lr = 1.0);
  TORCH_ARG(double, lr) = 1.0;
  TORCH_ARG(double, weight_decay) = 0.0;  // L2 added to the gradient
  TORCH_ARG(int64_t, non_monotone) = 5;   // n: compare with the best of checks before the last n

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct NtAsgdParamState : public torch::optim::OptimizerCloneableParamState<NtAsgdParamState> {
  TORCH_ARG(torch::Tensor, average);  // mean of the iterates since averaging began

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
};

// Non-monotonically triggered averaged SGD (Merity et al. 2017, AWD-LSTM). Plain SGD until a
// validation check t (counting from 0, the losses before it in logs[0..t-1]) finds
// t > n and loss > min(logs[0..t-n-1]): the loss is worse than the best of the checks more
// than n checks ago. From then on it keeps the running mean of the iterates after every
// step since the switch (the weights at the switch itself do not count, as with AWD-LSTM's
// fresh torch.optim.ASGD(t0=0)); evaluation and saving use that mean, swapped in and out of
// the parameters by swapAveragedWeights(). Validation log, switch, mean count and swap flag
// are saved with the state. load() expects the parameters to hold the weights saved with
// that state (load the model first): state saved while the mean was swapped in is swapped
// back on load, so training resumes from the raw iterate either way.
class NtAsgd : public torch::optim::Optimizer {
 public:
  explicit NtAsgd(std::vector<torch::Tensor> params, NtAsgdOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;

  // Records a validation loss; returns true when this check switches averaging on.
  bool notifyValidation(double validLoss);
  // Swaps the averaged weights with the parameters (a second call swaps back). Returns false,
  // doing nothing, before averaging starts. step() refuses to run while they are swapped in.
  bool swapAveragedWeights();

  bool averaging() const { return averaging_; }
  bool averagedWeightsIn() const { return swapped_; }
  int64_t averagedSteps() const { return averagedSteps_; }
  // The validation check (0-based) that switched averaging on; -1 while plain SGD.
  int64_t triggerCheck() const { return triggerCheck_; }
  const std::vector<double>& validationLosses() const { return losses_; }

 private:
  std::vector<double> losses_;
  bool averaging_ = false;
  bool swapped_ = false;
  int64_t averagedSteps_ = 0;
  int64_t triggerCheck_ = -1;
};

// NT-ASGD, once averaging: swaps the averaged weights into the parameters (evaluation and
// saving use them) or back; false, doing nothing, before averaging starts.
inline bool swapAveragedWeights(NtAsgd& optimizer) {
  return optimizer.swapAveragedWeights();
}
// Whether the averaged weights are in the parameters now (between two swaps). A state saved
// while they were swapped in is swapped back by load(), model loaded first, so training
// resumes from the raw iterate.
inline bool averagedWeightsIn(const NtAsgd& optimizer) {
  return optimizer.averagedWeightsIn();
}

}  // namespace mrnn::engine
