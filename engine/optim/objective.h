#pragma once

#include <torch/types.h>

#include <stdexcept>
#include <vector>

namespace mrnn::engine {

// Thrown from inside an objective's evaluation when the run it serves was asked to stop: the
// update it was part of is abandoned, and the rule puts the parameters and its own state back
// as they were before it, so that the run stops at its last whole step.
class UpdateInterrupted : public std::runtime_error {
 public:
  UpdateInterrupted() : std::runtime_error("the update was interrupted by a request to stop") {}
};

// The data an update's objective is measured on: all of it (the gradient's share), or the
// subset the curvature is estimated on (Hessian-free's curvature share; for first-order
// rules the two are the same).
enum class DataShare { Gradient, Curvature };

// The function one update minimises, as an update rule sees it: a loss over fixed data of
// the parameters' current values, its gradient, and curvature-vector products. The data is
// fixed for the update's lifetime (windows, their start states and dropout masks), so every
// evaluation at the same parameters gives the same value. With several processes each holds
// a share of the data and every result is already summed over them: a rule runs the same
// arithmetic on every rank and reaches the same update. The engine's WindowObjective
// implements it on a language model's windows; tests give rules small explicit functions.
class Objective {
 public:
  virtual ~Objective() = default;

  // The parameters an update changes, in a fixed order: flat vectors (curvature products,
  // squared gradients) lay them out one after another in this order.
  virtual const std::vector<torch::Tensor>& parameters() const = 0;

  // The loss on `share` at the parameters' current values; no gradient is kept.
  virtual double loss(DataShare share) = 0;
  // The loss on the gradient's share; each parameter's grad becomes the gradient of that
  // loss. When the loss is not finite the gradient may be left unset (one process) or be
  // non-finite too (ranks, who all go through the same sums).
  virtual double lossAndGradient() = 0;
  // (G + structural S) v on the curvature share: G the Gauss-Newton matrix of the loss at the
  // current parameters, S structural damping's (the Gauss-Newton matrix of a distance between
  // the hidden states and those of the current parameters). `v` is flat, over parameters().
  virtual torch::Tensor curvatureProduct(const torch::Tensor& v, double structural) = 0;
  // The mean over the curvature share of each sequence's gradient squared (elementwise),
  // flat: Martens' diagonal preconditioner's statistic.
  virtual torch::Tensor squaredGradients() = 0;
};

}  // namespace mrnn::engine
