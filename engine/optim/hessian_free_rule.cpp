#include "engine/optim/hessian_free_rule.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include "engine/optim/conjugate_gradient.h"
#include "engine/optim/first_order_rule.h"
#include "engine/optim/hessian_free_steps.h"
#include "engine/optim/runaway_damping.h"

namespace mrnn::engine {
namespace {

torch::Tensor flatGradient(const std::vector<torch::Tensor>& parameters) {
  std::vector<torch::Tensor> pieces;
  for (const auto& p : parameters) {
    pieces.push_back(p.grad().defined() ? p.grad().reshape({-1})
                                        : torch::zeros({p.numel()}, p.options()));
  }
  return torch::cat(pieces).detach().clone();
}

}  // namespace

HessianFreeRule::HessianFreeRule(const HessianFreeConfig& config,
                                 std::vector<torch::Tensor> parameters)
    : config_(config), parameters_(std::move(parameters)), lambda_(config.initialLambda) {
  cgOptions_.maxIterations = config.cgMaxIterations;
  cgOptions_.minIterations = config.cgMinIterations;
}

UpdateShape HessianFreeRule::shape() const {
  return {config_.gradientWindows, config_.curvatureWindows, config_.curvatureSequences};
}

void HessianFreeRule::moveTo(const torch::Tensor& step) {
  torch::NoGradGuard noGrad;
  int64_t offset = 0;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    auto& p = parameters_[i];
    if (step.defined()) {
      p.copy_(origin_[i] + step.narrow(0, offset, p.numel()).view_as(p));
    } else {
      p.copy_(origin_[i]);
    }
    offset += p.numel();
  }
}

UpdateResult HessianFreeRule::update(Objective& objective, double /*learningRate*/) {
  // A stop inside the step (its gradient, a CG iteration, backtracking, the line search)
  // abandons it: the weights, λ and CG's warm start go back to what they were before it.
  const torch::Tensor warmStart = warmStart_.defined() ? warmStart_.clone() : torch::Tensor();
  const double lambda = lambda_;
  const int64_t cgIterations = totalCgIterations_;
  const DampingRaises raises = raises_;
  try {
    return step(objective);
  } catch (const UpdateInterrupted&) {
    if (!origin_.empty()) moveTo({});
    origin_.clear();
    warmStart_ = warmStart;
    lambda_ = lambda;
    totalCgIterations_ = cgIterations;
    raises_ = raises;
    throw;
  }
}

UpdateResult HessianFreeRule::step(Objective& objective) {
  UpdateResult result;
  result.loss = objective.lossAndGradient();
  const torch::Tensor gradient = flatGradient(parameters_);
  result.gradientNorm = gradient.norm().item<double>();
  if (!std::isfinite(result.loss) || !std::isfinite(result.gradientNorm)) return result;

  origin_.clear();
  for (const auto& p : parameters_) origin_.push_back(p.detach().clone());
  const double lambda = lambda_;
  const double structural = config_.structuralDamping * lambda;
  torch::Tensor preconditioner;
  if (config_.preconditioner == Preconditioner::Diagonal) {
    preconditioner = (objective.squaredGradients() + lambda).pow(config_.preconditionerPower);
  }
  const auto damped = [&](const torch::Tensor& v) {
    return objective.curvatureProduct(v, structural) + lambda * v;
  };
  const torch::Tensor start = warmStart_.defined() && warmStart_.numel() == gradient.numel()
                                  ? warmStart_.to(gradient.options()) * config_.warmStartDecay
                                  : torch::zeros_like(gradient);
  const CgResult cg = conjugateGradient(damped, -gradient, start, preconditioner, cgOptions_);
  warmStart_ = cg.iterates.back().clone();
  totalCgIterations_ += cg.iterationsRun;

  // Backtracking over the kept iterates, on the gradient's data.
  std::vector<double> losses(cg.iterates.size(), std::nan(""));
  const auto lossOf = [&](size_t i) {
    moveTo(cg.iterates[i]);
    losses[i] = objective.loss(DataShare::Gradient);
    return losses[i];
  };
  size_t chosen = cg.iterates.size() - 1;
  double lossAtStep = 0.0;
  if (config_.backtracking) {
    chosen = backtrackIterates(cg.iterates.size(), lossOf, &lossAtStep);
  } else {
    lossAtStep = lossOf(chosen);
  }
  const torch::Tensor step = cg.iterates[chosen];

  // ρ on the curvature share, against the undamped quadratic model.
  moveTo(step);
  const double curvatureAfter = objective.loss(DataShare::Curvature);
  moveTo({});
  const double curvatureBefore = objective.loss(DataShare::Curvature);
  const double model = scalarProduct(gradient, step) +
                       0.5 * scalarProduct(step, objective.curvatureProduct(step, 0.0));
  const double rho = reductionRatio(curvatureBefore, curvatureAfter, model);
  lambda_ = dampingAfter(lambda_, rho, config_.minLambda);
  // Counted by ρ, not by λ's value: an overflowed λ no longer grows, and still ran away.
  raises_.record(raisesDamping(rho));

  LineSearch search{1.0, lossAtStep, 0};
  if (config_.lineSearch) {
    search =
        armijoLineSearch(result.loss, scalarProduct(gradient, step), lossAtStep, [&](double rate) {
          moveTo(step * rate);
          return objective.loss(DataShare::Gradient);
        });
  }
  moveTo(search.rate > 0.0 ? step * search.rate : torch::Tensor());
  // A rejected step: the next CG starts afresh (Sutskever's release), not from a direction
  // that failed.
  if (search.rate == 0.0) warmStart_ = torch::zeros_like(warmStart_);
  origin_.clear();
  ++steps_;

  result.applied = true;
  result.weightsFinite = allFinite(parameters_);
  result.stalled = dampingRanAway(raises_, lambda_);
  result.figures = {{metric::kCgIterations, static_cast<double>(cg.iterationsRun)},
                    {metric::kLambda, lambda_},
                    {metric::kRho, rho},
                    {metric::kBacktrackedIterate, static_cast<double>(cg.iterations[chosen])},
                    {metric::kStepSize, search.rate}};
  return result;
}

void HessianFreeRule::save(torch::serialize::OutputArchive& archive) const {
  archive.write("lambda", c10::IValue(lambda_));
  archive.write("iteration_cap", c10::IValue(cgOptions_.maxIterations));
  archive.write("steps", c10::IValue(steps_));
  archive.write("cg_iterations", c10::IValue(totalCgIterations_));
  archive.write("damping_raises", c10::IValue(static_cast<int64_t>(raises_.bits())));
  if (warmStart_.defined()) archive.write("warm_start", warmStart_.detach().cpu());
}

void HessianFreeRule::load(torch::serialize::InputArchive& archive) {
  c10::IValue value;
  archive.read("lambda", value);
  lambda_ = value.toDouble();
  archive.read("iteration_cap", value);
  cgOptions_.maxIterations = value.toInt();
  archive.read("steps", value);
  steps_ = value.toInt();
  archive.read("cg_iterations", value);
  totalCgIterations_ = value.toInt();
  // Older files counted raises in a row ("raised_in_a_row"): that many latest steps raised λ.
  // Files from before either read none.
  if (archive.try_read("damping_raises", value) && value.isInt()) {
    raises_ = DampingRaises(static_cast<uint64_t>(value.toInt()));
  } else if (archive.try_read("raised_in_a_row", value) && value.isInt()) {
    raises_ = DampingRaises();
    const int64_t inARow = std::min<int64_t>(value.toInt(), kRunawaySteps);
    for (int64_t i = 0; i < inARow; ++i) raises_.record(true);
  } else {
    raises_ = DampingRaises();
  }
  torch::Tensor warm;
  if (archive.try_read("warm_start", warm)) {
    warmStart_ = warm.to(parameters_.front().device());
  } else {
    warmStart_ = torch::Tensor();
  }
}

}  // namespace mrnn::engine
