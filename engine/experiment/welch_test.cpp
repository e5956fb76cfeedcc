#include "engine/experiment/welch_test.h"

#include <cmath>
#include <limits>

namespace mrnn::engine {
namespace {

// The continued fraction of the regularised incomplete beta function I_x(a, b), evaluated by
// the modified Lentz method; converges quickly for x < (a + 1) / (a + b + 2).
double betaFraction(double a, double b, double x) {
  constexpr int kMaxTerms = 300;
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= kMaxTerms; ++m) {
    const double m2 = 2.0 * m;
    // The even term, then the odd term, of the fraction.
    double numerator = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + numerator * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1.0 + numerator / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + numerator * d;
    if (std::abs(d) < kTiny) d = kTiny;
    c = 1.0 + numerator / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1.0) < kEpsilon) break;
  }
  return h;
}

// I_x(a, b), the regularised incomplete beta function.
double incompleteBeta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * betaFraction(a, b, x) / a;
  return 1.0 - front * betaFraction(b, a, 1.0 - x) / b;
}

struct Moments {
  double mean = 0.0;
  double variance = 0.0;  // unbiased
};

Moments momentsOf(const std::vector<double>& values) {
  Moments m;
  for (const double v : values) m.mean += v;
  m.mean /= static_cast<double>(values.size());
  for (const double v : values) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= static_cast<double>(values.size() - 1);
  return m;
}

}  // namespace

double studentTwoSidedP(double t, double dof) {
  if (!std::isfinite(t)) return 0.0;
  // P(|T| >= |t|) = I_{dof / (dof + t^2)}(dof / 2, 1 / 2).
  return incompleteBeta(dof / 2.0, 0.5, dof / (dof + t * t));
}

std::optional<WelchTest> welchTest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const Moments x = momentsOf(a);
  const Moments y = momentsOf(b);
  const double na = static_cast<double>(a.size());
  const double nb = static_cast<double>(b.size());
  const double va = x.variance / na;
  const double vb = y.variance / nb;
  if (va + vb <= 0.0) return std::nullopt;
  WelchTest test;
  test.t = (x.mean - y.mean) / std::sqrt(va + vb);
  test.degreesOfFreedom = (va + vb) * (va + vb) / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
  test.p = studentTwoSidedP(test.t, test.degreesOfFreedom);
  return test;
}

}  // namespace mrnn::engine
