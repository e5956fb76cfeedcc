#include "engine/optim/hessian_free_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mrnn::engine {

bool raisesDamping(double rho) {
  return std::isnan(rho) || rho < 0.25;
}

double levenbergMarquardt(double lambda, double rho) {
  if (raisesDamping(rho)) return lambda * 1.5;
  if (rho > 0.75) return lambda * (2.0 / 3.0);
  return lambda;
}

double dampingAfter(double lambda, double rho, double floor) {
  return std::max(floor, levenbergMarquardt(lambda, rho));
}

double reductionRatio(double lossBefore, double lossAfter, double modelReduction) {
  const double actual = lossAfter - lossBefore;
  if (!std::isfinite(actual) || actual > 0.0 || !(modelReduction < 0.0)) {
    return -std::numeric_limits<double>::infinity();
  }
  return actual / modelReduction;
}

size_t backtrackIterates(size_t count, const std::function<double(size_t)>& loss,
                         double* chosenLoss) {
  size_t chosen = count - 1;
  double best = loss(chosen);
  for (size_t j = count - 1; j-- > 0;) {
    const double earlier = loss(j);
    if (best < earlier) break;  // the later iterate is better: keep it
    best = earlier;
    chosen = j;
  }
  if (chosenLoss) *chosenLoss = best;
  return chosen;
}

LineSearch armijoLineSearch(double lossBefore, double slope, double lossAt1,
                            const std::function<double(double)>& lossAt) {
  constexpr double kSufficient = 1e-2;
  constexpr double kShrink = 0.8;
  constexpr int kMaxReductions = 60;
  LineSearch search;
  double rate = 1.0;
  double loss = lossAt1;
  while (search.reductions < kMaxReductions) {
    if (loss <= lossBefore + kSufficient * rate * slope) {
      search.rate = rate;
      search.loss = loss;
      return search;
    }
    rate *= kShrink;
    ++search.reductions;
    loss = lossAt(rate);
  }
  search.rate = 0.0;
  search.loss = lossBefore;
  return search;
}

}  // namespace mrnn::engine
