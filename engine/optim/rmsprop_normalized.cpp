#include "engine/optim/rmsprop_normalized.h"

#include <torch/optim/serialize.h>
#include <torch/torch.h>

#include <cmath>

#include "engine/optim/optimizer_state_key.h"

namespace mrnn::engine {

RmspropNormalizedOptions::RmspropNormalizedOptions(double lr) : lr_(lr) {}

void RmspropNormalizedOptions::serialize(torch::serialize::OutputArchive& archive) const {
  archive.write("lr", torch::IValue(lr()));
  archive.write("length_decay", torch::IValue(length_decay()));
  archive.write("alpha", torch::IValue(alpha()));
  archive.write("eps", torch::IValue(eps()));
  archive.write("weight_decay", torch::IValue(weight_decay()));
}

void RmspropNormalizedOptions::serialize(torch::serialize::InputArchive& archive) {
  torch::IValue value;
  archive.read("lr", value);
  lr(value.toDouble());
  archive.read("length_decay", value);
  length_decay(value.toDouble());
  archive.read("alpha", value);
  alpha(value.toDouble());
  archive.read("eps", value);
  eps(value.toDouble());
  archive.read("weight_decay", value);
  weight_decay(value.toDouble());
}

double RmspropNormalizedOptions::get_lr() const {
  return lr();
}
void RmspropNormalizedOptions::set_lr(const double rate) {
  lr(rate);
}

void RmspropNormalizedParamState::serialize(torch::serialize::OutputArchive& archive) const {
  if (square_avg().defined()) archive.write("square_avg", square_avg(), /*is_buffer=*/true);
}

void RmspropNormalizedParamState::serialize(torch::serialize::InputArchive& archive) {
  torch::Tensor tensor;
  if (archive.try_read("square_avg", tensor, /*is_buffer=*/true)) square_avg(tensor);
}

RmspropNormalized::RmspropNormalized(std::vector<torch::Tensor> params,
                                     RmspropNormalizedOptions defaults)
    : Optimizer({torch::optim::OptimizerParamGroup(std::move(params))},
                std::make_unique<RmspropNormalizedOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid update length: ", defaults.lr());
  TORCH_CHECK(defaults.length_decay() > 0 && defaults.length_decay() <= 1,
              "Invalid update length decay: ", defaults.length_decay());
  TORCH_CHECK(defaults.alpha() >= 0 && defaults.alpha() < 1, "Invalid alpha: ", defaults.alpha());
  TORCH_CHECK(defaults.eps() >= 0, "Invalid epsilon: ", defaults.eps());
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay: ", defaults.weight_decay());
}

double RmspropNormalized::nextUpdateLength(size_t group) const {
  const auto& options =
      static_cast<const RmspropNormalizedOptions&>(param_groups_.at(group).options());
  return options.lr() * std::pow(options.length_decay(), static_cast<double>(steps_));
}

torch::Tensor RmspropNormalized::step(LossClosure closure) {
  torch::NoGradGuard noGrad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enableGrad(true);
    loss = closure();
  }
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    auto& group = param_groups_[g];
    const auto& options = static_cast<const RmspropNormalizedOptions&>(group.options());
    std::vector<torch::Tensor> params;
    std::vector<torch::Tensor> directions;
    std::vector<torch::Tensor> squaredNorms;
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      torch::Tensor grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "RmspropNormalized does not support sparse gradients");
      if (options.weight_decay() != 0) grad = grad.add(p, options.weight_decay());

      const auto key = optimizerStateKey(p);
      auto found = state_.find(key);
      if (found == state_.end()) {
        auto fresh = std::make_unique<RmspropNormalizedParamState>();
        fresh->square_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        found = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<RmspropNormalizedParamState&>(*found->second);
      torch::Tensor squareAvg = state.square_avg();
      squareAvg.mul_(options.alpha()).addcmul_(grad, grad, 1 - options.alpha());
      torch::Tensor direction = grad / squareAvg.sqrt().add_(options.eps());
      // Accumulate |v*|² in double: the sum runs over the whole model.
      squaredNorms.push_back(direction.square().sum(torch::kDouble).to(p.device()));
      params.push_back(p);
      directions.push_back(std::move(direction));
    }
    if (params.empty()) continue;
    const double length = nextUpdateLength(g);
    // A device-side scale: no host synchronisation per step. A zero direction (all gradients
    // zero) leaves the parameters where they are.
    const torch::Tensor norm = torch::stack(squaredNorms).sum().sqrt();
    const torch::Tensor scale =
        torch::where(norm > 0, torch::full_like(norm, length) / norm, torch::zeros_like(norm));
    for (size_t i = 0; i < params.size(); ++i) {
      params[i].sub_(directions[i].mul_(scale.to(directions[i].dtype())));
    }
  }
  ++steps_;
  return loss;
}

void RmspropNormalized::save(torch::serialize::OutputArchive& archive) const {
  torch::optim::serialize<RmspropNormalizedParamState, RmspropNormalizedOptions>(archive, *this);
  archive.write("rmsprop_normalized/steps", torch::tensor(steps_, torch::kInt64));
}

void RmspropNormalized::load(torch::serialize::InputArchive& archive) {
  torch::optim::serialize<RmspropNormalizedParamState, RmspropNormalizedOptions>(archive, *this);
  torch::Tensor steps;
  archive.read("rmsprop_normalized/steps", steps);
  steps_ = steps.item<int64_t>();
  // A checkpoint is usually read onto the CPU; the averages live with their parameters.
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      const auto found = state_.find(optimizerStateKey(p));
      if (found == state_.end()) continue;
      auto& state = static_cast<RmspropNormalizedParamState&>(*found->second);
      if (state.square_avg().defined()) state.square_avg(state.square_avg().to(p.device()));
    }
  }
}

}  // namespace mrnn::engine
