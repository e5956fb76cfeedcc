// Welch's t-test of two configurations' seeds, against a numerical integration of Student's t
// density (independent of the incomplete beta function the test uses).

#include <cmath>

#include "engine/experiment/welch_test.h"
#include "test_harness.h"

using namespace mrnn;

MRNN_TEST(student_t_tail_matches_integration) {
  EXPECT_NEAR(engine::studentTwoSidedP(2.0, 10.0), 0.0733880347708, 1e-9);
  EXPECT_NEAR(engine::studentTwoSidedP(-2.0, 10.0), 0.0733880347708, 1e-9);
  EXPECT_NEAR(engine::studentTwoSidedP(1.0, 1.0), 0.5, 1e-12);  // Cauchy: half beyond 1
  EXPECT_NEAR(engine::studentTwoSidedP(0.0, 3.0), 1.0, 1e-12);
}

MRNN_TEST(welch_test_of_two_configurations_seeds) {
  const auto test = engine::welchTest({1.2, 1.25, 1.22}, {1.30, 1.28, 1.35, 1.33});
  EXPECT(test.has_value());
  if (!test) return;
  EXPECT_NEAR(test->t, -4.307932474933756, 1e-9);
  EXPECT_NEAR(test->degreesOfFreedom, 4.910182960635742, 1e-9);
  EXPECT_NEAR(test->p, 0.00797738844841751, 1e-7);
  // One seed, or no spread anywhere: no test.
  EXPECT(!engine::welchTest({1.0}, {2.0, 2.1}).has_value());
  EXPECT(!engine::welchTest({1.0, 1.0}, {2.0, 2.0}).has_value());
}
