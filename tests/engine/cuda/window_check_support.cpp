#include "window_check_support.h"

#include <torch/torch.h>

#include <algorithm>

#include "test_harness.h"

namespace mrnn::test::window_checks {

namespace {

// Float32 products differ from the CPU's only in summation order. Bfloat16 products round
// both operands to 8 significant bits (a relative step of 2^-8): over this window that
// moves the results by a few parts in a thousand of their largest value, so an indexing
// fault (a wrong row or column, a missed accumulation) still stands far outside.
double toleranceFor(engine::cuda::ProductPrecision precision) {
  return precision == engine::cuda::ProductPrecision::Bfloat16 ? 2e-2 : 1e-4;
}

// The largest difference relative to the expected tensor's largest value.
double expectClose(const torch::Tensor& actual, const torch::Tensor& expected,
                   const std::string& what, double tolerance) {
  EXPECT_MSG(actual.sizes() == expected.sizes(), what << ": shapes differ");
  const double scale = expected.abs().max().item<double>();
  const double difference = (actual - expected).abs().max().item<double>();
  EXPECT_MSG(torch::allclose(actual, expected, tolerance, tolerance * (1.0 + scale)),
             what << " differs by " << difference << " (largest value " << scale << ")");
  return difference / (1.0 + scale);
}

}  // namespace

LossWeights lossWeights(const WindowCase& windowCase, bool withC) {
  LossWeights w;
  if (windowCase.stepGradients) w.steps = torch::randn({kT, kB, kH});
  w.h = torch::randn({kB, kH}) * 0.5;
  w.c = withC ? torch::randn({kB, kH}) * 0.25 : torch::Tensor();
  return w;
}

torch::Tensor stateMask(const WindowCase& windowCase) {
  return windowCase.masked ? (torch::rand({kB, kH}) > 0.3).to(torch::kFloat) / 0.7
                           : torch::Tensor();
}

Named cpuWindow(
    const Named& inputs,
    const std::function<engine::FusedWindowResult(const std::vector<torch::Tensor>&)>& run,
    const LossWeights& w) {
  std::vector<torch::Tensor> leaves;
  for (const auto& input : inputs) leaves.push_back(input.second.clone().requires_grad_(true));
  const auto out = run(leaves);
  auto loss = (out.h * w.h).sum();
  if (w.steps.defined()) loss = loss + (out.hs * w.steps).sum();
  if (w.c.defined()) loss = loss + (out.c * w.c).sum();
  loss.backward();
  Named result{{"hs", out.hs.detach()}, {"h", out.h.detach()}};
  if (out.c.defined()) result.emplace_back("c", out.c.detach());
  for (size_t i = 0; i < inputs.size(); ++i) {
    result.emplace_back("d" + inputs[i].first, leaves[i].grad());
  }
  return result;
}

void compare(const Named& actual, const Named& expected, const std::string& label,
             engine::cuda::ProductPrecision precision) {
  const bool bfloat16 = precision == engine::cuda::ProductPrecision::Bfloat16;
  const std::string where = label + (bfloat16 ? ", bfloat16 products" : "");
  EXPECT_EQ(actual.size(), expected.size());
  double largest = 0.0;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_MSG(actual[i].first == expected[i].first,
               where << ": " << actual[i].first << " where " << expected[i].first);
    largest =
        std::max(largest, expectClose(actual[i].second, expected[i].second,
                                      where + ": " + expected[i].first, toleranceFor(precision)));
  }
  // Bfloat16 products that matched float32 to float32's tolerance were not rounded at all.
  if (bfloat16) {
    EXPECT_MSG(largest > toleranceFor(engine::cuda::ProductPrecision::Float32),
               where << ": no trace of bfloat16 rounding (largest difference " << largest << ")");
  }
}

float* maskOn(WindowDevice& device, const torch::Tensor& mask) {
  return mask.defined() ? device.upload(mask) : nullptr;
}

float* stepsOn(WindowDevice& device, const LossWeights& w) {
  return w.steps.defined() ? device.upload(w.steps) : nullptr;
}

}  // namespace mrnn::test::window_checks
