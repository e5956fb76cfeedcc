#pragma once

#include <optional>
#include <vector>

namespace mrnn::engine {

// Welch's t-test of two samples' means (two configurations' seeds), not assuming equal
// variances: t, the Welch–Satterthwaite degrees of freedom, and the two-sided p-value.
struct WelchTest {
  double t = 0.0;
  double degreesOfFreedom = 0.0;
  double p = 1.0;
};

// Nothing when either sample has fewer than two values or both have no spread at all.
std::optional<WelchTest> welchTest(const std::vector<double>& a, const std::vector<double>& b);

// P(|T| >= |t|) for Student's t with `dof` degrees of freedom (dof > 0).
double studentTwoSidedP(double t, double dof);

}  // namespace mrnn::engine
