#include "engine/optim/nt_asgd.h"

#include <torch/optim/serialize.h>
#include <torch/torch.h>

#include <algorithm>

#include "engine/optim/optimizer_state_key.h"

namespace mrnn::engine {

NtAsgdOptions::NtAsgdOptions(double lr) : lr_(lr) {}

void NtAsgdOptions::serialize(torch::serialize::OutputArchive& archive) const {
  archive.write("lr", torch::IValue(lr()));
  archive.write("weight_decay", torch::IValue(weight_decay()));
  archive.write("non_monotone", torch::IValue(non_monotone()));
}

void NtAsgdOptions::serialize(torch::serialize::InputArchive& archive) {
  torch::IValue value;
  archive.read("lr", value);
  lr(value.toDouble());
  archive.read("weight_decay", value);
  weight_decay(value.toDouble());
  archive.read("non_monotone", value);
  non_monotone(value.toInt());
}

double NtAsgdOptions::get_lr() const {
  return lr();
}
void NtAsgdOptions::set_lr(const double rate) {
  lr(rate);
}

void NtAsgdParamState::serialize(torch::serialize::OutputArchive& archive) const {
  if (average().defined()) archive.write("average", average(), /*is_buffer=*/true);
}

void NtAsgdParamState::serialize(torch::serialize::InputArchive& archive) {
  torch::Tensor tensor;
  if (archive.try_read("average", tensor, /*is_buffer=*/true)) average(tensor);
}

NtAsgd::NtAsgd(std::vector<torch::Tensor> params, NtAsgdOptions defaults)
    : Optimizer({torch::optim::OptimizerParamGroup(std::move(params))},
                std::make_unique<NtAsgdOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay: ", defaults.weight_decay());
  TORCH_CHECK(defaults.non_monotone() >= 1, "Invalid non_monotone: ", defaults.non_monotone());
}

torch::Tensor NtAsgd::step(LossClosure closure) {
  TORCH_CHECK(!swapped_, "NtAsgd::step while the averaged weights are swapped in; swap back first");
  torch::NoGradGuard noGrad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enableGrad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& options = static_cast<const NtAsgdOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      torch::Tensor grad = p.grad();
      if (options.weight_decay() != 0) grad = grad.add(p, options.weight_decay());
      p.add_(grad, -options.lr());
    }
  }
  if (!averaging_) return loss;

  // Running mean of the iterates since the switch: a_k = a_{k-1} + (w_k - a_{k-1}) / k; the
  // first is copied so that it is exact.
  ++averagedSteps_;
  const double mu = 1.0 / static_cast<double>(averagedSteps_);
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      auto& state = static_cast<NtAsgdParamState&>(*state_.at(optimizerStateKey(p)));
      torch::Tensor average = state.average();
      if (averagedSteps_ == 1) {
        average.copy_(p);
      } else {
        average.add_(p - average, mu);
      }
    }
  }
  return loss;
}

bool NtAsgd::notifyValidation(double validLoss) {
  bool switched = false;
  const auto n = static_cast<size_t>(
      static_cast<const NtAsgdOptions&>(param_groups_.at(0).options()).non_monotone());
  if (!averaging_ && losses_.size() > n) {
    const double best =
        *std::min_element(losses_.begin(), losses_.end() - static_cast<std::ptrdiff_t>(n));
    if (validLoss > best) {
      torch::NoGradGuard noGrad;
      averaging_ = true;
      averagedSteps_ = 0;
      triggerCheck_ = static_cast<int64_t>(losses_.size());
      // Until the first averaged step the mean is the current weights, so that a swap right
      // after the switch is harmless.
      for (auto& group : param_groups_) {
        for (auto& p : group.params()) {
          auto fresh = std::make_unique<NtAsgdParamState>();
          fresh->average(p.detach().clone());
          state_[optimizerStateKey(p)] = std::move(fresh);
        }
      }
      switched = true;
    }
  }
  losses_.push_back(validLoss);
  return switched;
}

bool NtAsgd::swapAveragedWeights() {
  if (!averaging_) return false;
  torch::NoGradGuard noGrad;
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      auto& state = static_cast<NtAsgdParamState&>(*state_.at(optimizerStateKey(p)));
      torch::Tensor raw = p.detach().clone();
      p.copy_(state.average());
      state.average().copy_(raw);
    }
  }
  swapped_ = !swapped_;
  return true;
}

void NtAsgd::save(torch::serialize::OutputArchive& archive) const {
  torch::optim::serialize<NtAsgdParamState, NtAsgdOptions>(archive, *this);
  torch::Tensor losses = torch::empty({static_cast<int64_t>(losses_.size())}, torch::kDouble);
  std::copy(losses_.begin(), losses_.end(), losses.data_ptr<double>());
  archive.write("nt_asgd/losses", losses);
  const std::vector<int64_t> flags{averaging_ ? 1 : 0, swapped_ ? 1 : 0, averagedSteps_,
                                   triggerCheck_};
  archive.write("nt_asgd/flags", torch::tensor(flags, torch::kInt64));
}

void NtAsgd::load(torch::serialize::InputArchive& archive) {
  torch::optim::serialize<NtAsgdParamState, NtAsgdOptions>(archive, *this);
  torch::Tensor losses;
  archive.read("nt_asgd/losses", losses);
  losses = losses.to(torch::kDouble).contiguous();
  losses_.assign(losses.data_ptr<double>(), losses.data_ptr<double>() + losses.numel());
  torch::Tensor flags;
  archive.read("nt_asgd/flags", flags);
  flags = flags.to(torch::kInt64).contiguous();
  const int64_t* f = flags.data_ptr<int64_t>();
  averaging_ = f[0] != 0;
  swapped_ = f[1] != 0;
  averagedSteps_ = f[2];
  triggerCheck_ = f[3];
  // A checkpoint is usually read onto the CPU; the mean lives with its parameter.
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      const auto found = state_.find(optimizerStateKey(p));
      if (found == state_.end()) continue;
      auto& state = static_cast<NtAsgdParamState&>(*found->second);
      if (state.average().defined()) state.average(state.average().to(p.device()));
    }
  }
  // Saved while the mean was swapped in (the trainer saves its best checkpoint during
  // validation): the parameters, loaded first, hold the mean and the state the iterate.
  // Swap back so that training goes on from the iterate.
  if (swapped_) swapAveragedWeights();
}

}  // namespace mrnn::engine
