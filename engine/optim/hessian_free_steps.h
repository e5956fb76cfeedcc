#pragma once

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace mrnn::engine {

// The pieces of a Hessian-free step around CG (Martens 2010 and his nnet_train_2), each a
// function of plain numbers so that tests can check it on constructed cases.

// Levenberg-Marquardt's rule for λ: ρ < 1/4 (a NaN too) multiplies it by 3/2, ρ > 3/4 by 2/3,
// anything between leaves it.
double levenbergMarquardt(double lambda, double rho);
// Whether ρ raises λ under that rule (ρ < 1/4 or NaN): a step that kept too little of its
// model's promise.
bool raisesDamping(double rho);
// The rule above, never below `floor`.
double dampingAfter(double lambda, double rho, double floor);

// The reduction ratio ρ = (f(θ + p) − f(θ)) / (q(p) − q(0)): how much of the reduction the
// quadratic model q promised the loss f delivered. A rise of f, a NaN, or a model that
// promised no reduction count as ρ = −∞.
double reductionRatio(double lossBefore, double lossAfter, double modelReduction);

// CG backtracking: from the last kept iterate towards the first, on the loss of each
// (`loss(i)` for iterate i), while an earlier one is no worse; returns the index chosen and
// its loss in `chosenLoss`. Martens evaluates each iterate on the gradient's data.
size_t backtrackIterates(size_t count, const std::function<double(size_t)>& loss,
                         double* chosenLoss);

struct LineSearch {
  double rate = 0.0;  // 0: no rate gave a decrease (the step is rejected)
  double loss = 0.0;  // f at the rate chosen (f(θ) when rejected)
  int reductions = 0;
};
// Armijo's backtracking line search (Martens' nnet_train_2): from rate 1, shrink by 0.8 until
// f(θ + rate p) <= f(θ) + c·rate·gᵀp with c = 0.01, at most 60 times; then reject. `lossAt1`
// is f(θ + p), already known from backtracking.
LineSearch armijoLineSearch(double lossBefore, double slope, double lossAt1,
                            const std::function<double(double)>& lossAt);

}  // namespace mrnn::engine
