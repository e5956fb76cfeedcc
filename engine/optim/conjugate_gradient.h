#pragma once

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mrnn::engine {

// aᵀb of two flat vectors, summed in float64 (CG's step sizes and the rule's reductions).
double scalarProduct(const torch::Tensor& a, const torch::Tensor& b);

struct CgOptions {
  int64_t maxIterations = 150;
  int64_t minIterations = 1;
  // Martens' progress test: stop at iteration i once the quadratic's value φ has improved by
  // less than tolerance·k relative to its value k = max(minGap, gapRatio·i) iterations back.
  double tolerance = 5e-4;
  double gapRatio = 0.1;
  int64_t minGap = 10;
  // Iterates kept for backtracking: at iteration ceil(first), then each time the mark grows by
  // `growth` (5, 7, 9, 11, 15, 19, 25, 32, ...), and the last.
  double firstKept = 5.0;
  double keptGrowth = 1.3;
};

// Why CG stopped.
enum class CgStop { MaxIterations, Progress, NegativeCurvature, ZeroResidual };
std::string cgStopName(CgStop stop);  // "max iterations", "progress", ...

struct CgResult {
  std::vector<torch::Tensor> iterates;  // the kept iterates, in order; the last is the final one
  std::vector<int64_t> iterations;      // the iteration each was kept at
  std::vector<double> values;           // φ at each kept iterate
  std::vector<double> trace;            // φ after every iteration (1, 2, ...)
  int64_t iterationsRun = 0;
  CgStop stop = CgStop::MaxIterations;
};

// Preconditioned conjugate gradient on φ(x) = ½ xᵀAx − bᵀx, A symmetric positive definite
// given by its product, from x0, as Martens' HF runs it (conjgrad_1): the preconditioner M is
// a positive diagonal (undefined: none), the residual r = Ax − b, the search direction from
// y = r / M. It stops at maxIterations, on the progress test (CgOptions), when a direction
// has curvature pᵀAp <= 0 (A is then not positive definite there; the iterate before it
// stands) or when the residual is exactly zero. Every vector is flat; A's products are where
// the time goes.
CgResult conjugateGradient(const std::function<torch::Tensor(const torch::Tensor&)>& product,
                           const torch::Tensor& b, const torch::Tensor& x0,
                           const torch::Tensor& preconditioner, const CgOptions& options);

}  // namespace mrnn::engine
