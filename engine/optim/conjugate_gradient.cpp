#include "engine/optim/conjugate_gradient.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

namespace mrnn::engine {
double scalarProduct(const torch::Tensor& a, const torch::Tensor& b) {
  return torch::dot(a.to(torch::kDouble), b.to(torch::kDouble)).item<double>();
}

std::string cgStopName(CgStop stop) {
  switch (stop) {
    case CgStop::MaxIterations:
      return "max iterations";
    case CgStop::Progress:
      return "progress";
    case CgStop::NegativeCurvature:
      return "negative curvature";
    case CgStop::ZeroResidual:
      return "zero residual";
  }
  return "max iterations";
}

CgResult conjugateGradient(const std::function<torch::Tensor(const torch::Tensor&)>& product,
                           const torch::Tensor& b, const torch::Tensor& x0,
                           const torch::Tensor& preconditioner, const CgOptions& options) {
  torch::NoGradGuard noGrad;
  const auto precondition = [&](const torch::Tensor& r) {
    return preconditioner.defined() ? r / preconditioner : r;
  };
  CgResult result;
  torch::Tensor x = x0.clone();
  torch::Tensor r = product(x) - b;
  torch::Tensor y = precondition(r);
  torch::Tensor p = -y;
  double ry = scalarProduct(r, y);
  // φ(x) = ½ xᵀAx − bᵀx = ½ (r − b)ᵀ x
  double value = 0.5 * scalarProduct(r - b, x);
  std::vector<double>& values = result.trace;  // φ after each iteration
  double nextKept = options.firstKept;
  const auto keep = [&](int64_t iteration) {
    result.iterates.push_back(x.clone());
    result.iterations.push_back(iteration);
    result.values.push_back(value);
  };

  int64_t i = 0;
  while (i < options.maxIterations) {
    if (ry == 0.0) {
      result.stop = CgStop::ZeroResidual;
      break;
    }
    const torch::Tensor ap = product(p);
    const double pap = scalarProduct(p, ap);
    if (!(pap > 0.0)) {
      result.stop = CgStop::NegativeCurvature;
      break;
    }
    ++i;
    const double alpha = ry / pap;
    x = x + alpha * p;
    r = r + alpha * ap;
    y = precondition(r);
    const double ryNew = scalarProduct(r, y);
    p = -y + (ryNew / ry) * p;
    ry = ryNew;
    value = 0.5 * scalarProduct(r - b, x);
    values.push_back(value);
    if (i == static_cast<int64_t>(std::ceil(nextKept))) {
      keep(i);
      nextKept *= options.keptGrowth;
    }
    const int64_t gap =
        std::max<int64_t>(static_cast<int64_t>(std::ceil(options.gapRatio * i)), options.minGap);
    if (i > gap && i >= options.minIterations) {
      const double before = values[static_cast<size_t>(i - gap - 1)];
      if (before < 0.0 && (value - before) / value < options.tolerance * gap) {
        result.stop = CgStop::Progress;
        break;
      }
    }
  }
  result.iterationsRun = i;
  if (result.iterations.empty() || result.iterations.back() != i) keep(i);
  return result;
}

}  // namespace mrnn::engine
