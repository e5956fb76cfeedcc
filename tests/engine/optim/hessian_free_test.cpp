// Hessian-free's parts on constructed cases: CG against a direct solve, its kept iterates and
// stopping rules, backtracking, the line search, ρ and λ's rule; the whole rule on an
// explicit quadratic; its checkpointed state; a λ that runs away.

#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "engine/optim/conjugate_gradient.h"
#include "engine/optim/hessian_free_rule.h"
#include "engine/optim/hessian_free_steps.h"
#include "engine/optim/objective.h"
#include "engine/optim/runaway_damping.h"
#include "test_harness.h"

namespace {

using namespace mrnn;
using torch::kDouble;

// A symmetric positive-definite n x n matrix with eigenvalues spread over [1, condition].
torch::Tensor spdMatrix(int64_t n, double condition, uint64_t seed) {
  torch::manual_seed(seed);
  const auto q = std::get<0>(torch::linalg_qr(torch::randn({n, n}, kDouble)));
  const auto eigen = torch::logspace(0.0, std::log10(condition), n, 10.0, kDouble);
  return q.matmul(torch::diag(eigen)).matmul(q.t());
}

std::function<torch::Tensor(const torch::Tensor&)> productOf(const torch::Tensor& a) {
  return [a](const torch::Tensor& v) { return a.matmul(v); };
}

double maxDifference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

MRNN_TEST(cg_equals_a_direct_solve_on_a_small_spd_system) {
  const int64_t n = 12;
  const auto a = spdMatrix(n, 50.0, 3);
  const auto b = torch::randn({n}, kDouble);
  const auto exact = torch::linalg_solve(a, b.unsqueeze(1), true).squeeze(1);
  engine::CgOptions options;
  options.maxIterations = 3 * n;  // exact arithmetic needs n; rounding a few more
  options.tolerance = 0.0;        // no progress stop: run to the residual's zero or the cap
  const auto cg =
      engine::conjugateGradient(productOf(a), b, torch::zeros({n}, kDouble), {}, options);
  EXPECT_MSG(maxDifference(cg.iterates.back(), exact) < 1e-9,
             "max difference " << maxDifference(cg.iterates.back(), exact));
  // φ at the solution is −½ bᵀA⁻¹b.
  EXPECT_NEAR(cg.values.back(), -0.5 * torch::dot(b, exact).item<double>(), 1e-9);

  // A diagonal preconditioner and a warm start change the path, not the solution.
  const auto preconditioner = torch::diagonal(a).abs() + 0.5;
  const auto warm = torch::randn({n}, kDouble);
  const auto pcg = engine::conjugateGradient(productOf(a), b, warm, preconditioner, options);
  EXPECT_MSG(maxDifference(pcg.iterates.back(), exact) < 1e-9,
             "preconditioned: max difference " << maxDifference(pcg.iterates.back(), exact));
}

MRNN_TEST(cg_keeps_its_iterates_at_geometric_steps_and_the_last) {
  const int64_t n = 60;
  const auto a = spdMatrix(n, 1e4, 5);
  const auto b = torch::randn({n}, kDouble);
  engine::CgOptions options;
  options.maxIterations = 30;
  options.tolerance = 0.0;
  const auto cg =
      engine::conjugateGradient(productOf(a), b, torch::zeros({n}, kDouble), {}, options);
  EXPECT_EQ(cg.iterationsRun, int64_t{30});
  EXPECT(cg.stop == engine::CgStop::MaxIterations);
  // ceil(5 · 1.3^k): 5, 7 (6.5), 9 (8.45), 11 (10.985), 15 (14.28), 19 (18.56), 25 (24.13),
  // then the last.
  EXPECT(cg.iterations == (std::vector<int64_t>{5, 7, 9, 11, 15, 19, 25, 30}));
  EXPECT_EQ(cg.iterates.size(), cg.iterations.size());
  EXPECT_EQ(cg.trace.size(), size_t{30});
  for (size_t k = 0; k < cg.iterations.size(); ++k) {
    const auto x = cg.iterates[k];
    const double phi =
        0.5 * torch::dot(x, a.matmul(x)).item<double>() - torch::dot(b, x).item<double>();
    EXPECT_NEAR(cg.values[k], phi, 1e-9 * std::fabs(phi) + 1e-12);
    EXPECT_NEAR(cg.trace[static_cast<size_t>(cg.iterations[k] - 1)], phi,
                1e-9 * std::fabs(phi) + 1e-12);
  }
  // φ falls at every iteration (CG minimises it over a growing Krylov space).
  for (size_t i = 1; i < cg.trace.size(); ++i) EXPECT(cg.trace[i] <= cg.trace[i - 1] + 1e-12);
}

MRNN_TEST(cg_stops_when_its_relative_progress_falls_below_the_tolerance) {
  const int64_t n = 300;
  const auto a = spdMatrix(n, 1e3, 7);
  const auto b = torch::randn({n}, kDouble);
  engine::CgOptions options;  // Martens': ε = 5e-4, k = max(10, 0.1 i)
  options.maxIterations = 300;
  const auto cg =
      engine::conjugateGradient(productOf(a), b, torch::zeros({n}, kDouble), {}, options);
  EXPECT_MSG(cg.stop == engine::CgStop::Progress, engine::cgStopName(cg.stop)
                                                      << " after " << cg.iterationsRun);
  EXPECT(cg.iterationsRun < options.maxIterations);
  // The first iteration i at which (φ_i − φ_{i−k}) / φ_i < ε k holds is where it stopped.
  const auto firstProgressStop = [](const std::vector<double>& trace, int64_t from) {
    for (int64_t i = from; i <= static_cast<int64_t>(trace.size()); ++i) {
      const int64_t k = std::max<int64_t>(static_cast<int64_t>(std::ceil(0.1 * i)), 10);
      if (i <= k) continue;
      const double now = trace[static_cast<size_t>(i - 1)];
      const double before = trace[static_cast<size_t>(i - k - 1)];
      if (before < 0 && (now - before) / now < 5e-4 * static_cast<double>(k)) return i;
    }
    return int64_t{0};
  };
  const int64_t first = firstProgressStop(cg.trace, 1);
  EXPECT(first > 0);
  EXPECT_EQ(cg.iterationsRun, first);

  // cg_min_iterations holds it off: it stops at the first iteration from there on.
  options.minIterations = first + 7;
  const auto held =
      engine::conjugateGradient(productOf(a), b, torch::zeros({n}, kDouble), {}, options);
  EXPECT(held.iterationsRun >= first + 7);
  EXPECT_EQ(held.iterationsRun, firstProgressStop(held.trace, first + 7));
}

MRNN_TEST(cg_stops_before_a_direction_of_negative_curvature) {
  // A = diag(2, −1): from x0 = 0 with b = (1, 1), the first direction is −r = b, whose
  // curvature bᵀAb = 2 − 1 = 1 > 0; its step leaves a residual along which CG's next direction
  // has negative curvature.
  const auto a = torch::tensor({2.0, 0.0, 0.0, -1.0}, kDouble).view({2, 2});
  const auto b = torch::tensor({1.0, 1.0}, kDouble);
  engine::CgOptions options;
  options.maxIterations = 10;
  const auto cg =
      engine::conjugateGradient(productOf(a), b, torch::zeros({2}, kDouble), {}, options);
  EXPECT(cg.stop == engine::CgStop::NegativeCurvature);
  EXPECT_EQ(cg.iterationsRun, int64_t{1});
  // x1 = α b with α = rᵀr / bᵀAb = 2 / 1.
  EXPECT(maxDifference(cg.iterates.back(), torch::tensor({2.0, 2.0}, kDouble)) < 1e-15);

  // A NaN product (a broken model) stops it the same way, with the start kept.
  const auto nan = [](const torch::Tensor& v) { return v * std::nan(""); };
  const auto broken = engine::conjugateGradient(nan, b, torch::zeros({2}, kDouble), {}, options);
  EXPECT_EQ(broken.iterationsRun, int64_t{0});
  EXPECT_EQ(broken.iterates.size(), size_t{1});
}

MRNN_TEST(backtracking_walks_back_while_an_earlier_iterate_is_no_worse) {
  const auto pick = [](std::vector<double> losses, double* chosen) {
    std::vector<size_t> asked;
    const size_t index = engine::backtrackIterates(
        losses.size(),
        [&](size_t i) {
          asked.push_back(i);
          return losses[i];
        },
        chosen);
    return std::make_pair(index, asked);
  };
  double chosen = 0.0;
  // From the last (4.0) back: 3.5, 3.0 are better, then 4.0 is worse: iterate 2.
  auto [index, asked] = pick({5.0, 4.0, 3.0, 3.5, 4.0}, &chosen);
  EXPECT_EQ(index, size_t{2});
  EXPECT_EQ(chosen, 3.0);
  EXPECT(asked == (std::vector<size_t>{4, 3, 2, 1}));
  // The last is best: one step back shows it, and it stays.
  auto [last, askedLast] = pick({3.0, 2.0, 1.0}, &chosen);
  EXPECT_EQ(last, size_t{2});
  EXPECT(askedLast == (std::vector<size_t>{2, 1}));
  // Ties go back (Martens: only a strictly better later iterate stops the walk); a NaN loss is
  // never better.
  auto [tie, askedTie] = pick({1.0, 1.0, 1.0}, &chosen);
  EXPECT_EQ(tie, size_t{0});
  (void)askedTie;
  auto [nan, askedNan] = pick({2.0, 1.0, std::nan("")}, &chosen);
  EXPECT_EQ(nan, size_t{1});
  EXPECT_EQ(chosen, 1.0);
  (void)askedNan;
}

MRNN_TEST(the_line_search_shrinks_by_four_fifths_until_armijo_holds) {
  // f(θ + r p) = 1 − r + r², f(θ) = 1, gᵀp = −1: Armijo wants f <= 1 − 0.01 r. At r = 1,
  // f = 1 fails; at 0.8, f = 0.84 holds.
  std::vector<double> rates;
  const auto f = [&](double r) {
    rates.push_back(r);
    return 1.0 - r + r * r;
  };
  const auto search = engine::armijoLineSearch(1.0, -1.0, f(1.0), f);
  EXPECT_NEAR(search.rate, 0.8, 1e-15);
  EXPECT_NEAR(search.loss, 0.84, 1e-15);
  EXPECT_EQ(search.reductions, 1);

  // A step that only raises the loss is tried 60 times smaller, then rejected.
  int calls = 0;
  const auto rising = [&](double r) {
    ++calls;
    return 1.0 + r;
  };
  const auto rejected = engine::armijoLineSearch(1.0, -1.0, 2.0, rising);
  EXPECT_EQ(rejected.rate, 0.0);
  EXPECT_EQ(rejected.loss, 1.0);
  EXPECT_EQ(rejected.reductions, 60);
  EXPECT_EQ(calls, 60);
  // A NaN loss is no decrease either.
  const auto nan = engine::armijoLineSearch(1.0, -1.0, std::nan(""),
                                            [](double r) { return r > 0.5 ? std::nan("") : 0.5; });
  EXPECT_NEAR(nan.rate, 0.8 * 0.8 * 0.8 * 0.8, 1e-15);  // 0.4096 is the first below 0.5
}

MRNN_TEST(rho_and_the_levenberg_marquardt_rule_for_lambda) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NEAR(engine::reductionRatio(2.0, 1.5, -1.0), 0.5, 1e-15);
  EXPECT_EQ(engine::reductionRatio(2.0, 2.5, -1.0), -inf);           // the loss rose
  EXPECT_EQ(engine::reductionRatio(2.0, std::nan(""), -1.0), -inf);  // NaN
  EXPECT_EQ(engine::reductionRatio(2.0, 1.5, 0.0), -inf);            // no reduction promised
  EXPECT_EQ(engine::reductionRatio(2.0, 2.0, -1.0), 0.0);            // nothing gained, no rise

  EXPECT(engine::raisesDamping(0.1) && engine::raisesDamping(-inf) &&
         engine::raisesDamping(std::nan("")) && !engine::raisesDamping(0.25));
  EXPECT_NEAR(engine::levenbergMarquardt(10.0, 0.1), 15.0, 1e-12);
  EXPECT_NEAR(engine::levenbergMarquardt(10.0, -inf), 15.0, 1e-12);
  EXPECT_NEAR(engine::levenbergMarquardt(10.0, std::nan("")), 15.0, 1e-12);
  EXPECT_NEAR(engine::levenbergMarquardt(10.0, 0.9), 10.0 * 2.0 / 3.0, 1e-12);
  EXPECT_EQ(engine::levenbergMarquardt(10.0, 0.5), 10.0);
  EXPECT_EQ(engine::levenbergMarquardt(10.0, 0.25), 10.0);  // the bounds leave λ
  EXPECT_EQ(engine::levenbergMarquardt(10.0, 0.75), 10.0);
  // A floor holds λ where the rule would take it on down (5-bit memorisation: to 1e-83).
  EXPECT_NEAR(engine::dampingAfter(0.012, 0.9, 0.01), 0.01, 0.0);
  EXPECT_NEAR(engine::dampingAfter(0.012, 0.9, 0.0), 0.008, 1e-15);
  EXPECT_NEAR(engine::dampingAfter(0.01, 0.1, 0.01), 0.015, 1e-15);
}

// f(θ) = ½ (θ − c)ᵀ A (θ − c): its Gauss-Newton matrix is A, exactly.
class QuadraticObjective : public engine::Objective {
 public:
  QuadraticObjective(torch::Tensor a, torch::Tensor centre, torch::Tensor theta)
      : a_(std::move(a)), centre_(std::move(centre)), parameters_{std::move(theta)} {}
  const std::vector<torch::Tensor>& parameters() const override { return parameters_; }
  double value() const {
    const auto d = parameters_[0].detach() - centre_;
    return 0.5 * torch::dot(d, a_.matmul(d)).item<double>();
  }
  // Rising: anywhere but where the gradient was taken is worse than there (ρ = −∞, no rate
  // passes the line search).
  double loss(engine::DataShare) override {
    const bool moved = anchor_.defined() && !torch::equal(parameters_[0].detach(), anchor_);
    return rising && moved ? anchorValue_ + 1.0 : value();
  }
  double lossAndGradient() override {
    auto& p = parameters_[0];
    anchor_ = p.detach().clone();
    anchorValue_ = value();
    p.mutable_grad() = a_.matmul(p.detach() - centre_);
    return anchorValue_;
  }
  torch::Tensor curvatureProduct(const torch::Tensor& v, double) override {
    ++products;
    return a_.matmul(v);
  }
  torch::Tensor squaredGradients() override { return torch::ones_like(centre_); }
  int products = 0;
  bool rising = false;  // every point the step tries is worse than where it stands

 private:
  torch::Tensor a_;
  torch::Tensor centre_;
  std::vector<torch::Tensor> parameters_;
  torch::Tensor anchor_;  // where lossAndGradient was last taken
  double anchorValue_ = 0.0;
};

engine::HessianFreeConfig exactConfig(int64_t n) {
  engine::HessianFreeConfig config;
  config.initialLambda = 1e-8;
  config.cgMaxIterations = 4 * n;
  config.preconditioner = engine::Preconditioner::None;
  return config;
}

MRNN_TEST(one_hessian_free_step_reaches_a_quadratics_minimum) {
  const int64_t n = 8;
  const auto a = spdMatrix(n, 20.0, 11);
  const auto centre = torch::randn({n}, kDouble);
  auto theta = torch::zeros({n}, kDouble).requires_grad_(true);
  QuadraticObjective objective(a, centre, theta);
  engine::HessianFreeRule rule(exactConfig(n), {theta});
  const auto result = rule.update(objective, 0.0);
  EXPECT(result.applied && result.weightsFinite);
  EXPECT_MSG(maxDifference(theta.detach(), centre) < 1e-6,
             "max difference " << maxDifference(theta.detach(), centre));
  double rho = 0.0;
  double step = 0.0;
  for (const auto& figure : result.figures) {
    if (figure.name == engine::metric::kRho) rho = figure.value;
    if (figure.name == engine::metric::kStepSize) step = figure.value;
  }
  // The model is the function: ρ = 1, and λ falls by 2/3; the full step passes Armijo.
  EXPECT_NEAR(rho, 1.0, 1e-6);
  EXPECT_NEAR(rule.lambda(), 1e-8 * 2.0 / 3.0, 1e-20);
  EXPECT_EQ(step, 1.0);
  EXPECT(objective.products > 0);
}

MRNN_TEST(a_large_lambda_damps_the_step_towards_the_gradient) {
  // λ ≫ A: the damped solution is about −g/λ, short of the minimum; ρ near 1 all the same.
  const int64_t n = 6;
  const auto a = spdMatrix(n, 5.0, 13);
  const auto centre = torch::randn({n}, kDouble);
  auto theta = torch::zeros({n}, kDouble).requires_grad_(true);
  QuadraticObjective objective(a, centre, theta);
  auto config = exactConfig(n);
  config.initialLambda = 1e4;
  engine::HessianFreeRule rule(config, {theta});
  const auto gradient = a.matmul(-centre);
  rule.update(objective, 0.0);
  const auto expected =
      torch::linalg_solve(a + 1e4 * torch::eye(n, kDouble), -gradient.unsqueeze(1), true)
          .squeeze(1);
  EXPECT_MSG(maxDifference(theta.detach(), expected) < 1e-9,
             "max difference " << maxDifference(theta.detach(), expected));
}

MRNN_TEST(hessian_free_state_saves_and_loads) {
  const int64_t n = 5;
  const auto a = spdMatrix(n, 10.0, 17);
  const auto centre = torch::randn({n}, kDouble);
  auto theta = torch::zeros({n}, kDouble).requires_grad_(true);
  QuadraticObjective objective(a, centre, theta);
  auto config = exactConfig(n);
  config.initialLambda = 3.0;
  config.cgMaxIterations = 2;  // an unfinished solve leaves a warm start worth keeping
  engine::HessianFreeRule first(config, {theta});
  first.update(objective, 0.0);
  std::stringstream stream;
  {
    torch::serialize::OutputArchive archive;
    first.save(archive);
    archive.save_to(stream);
  }
  auto other = torch::zeros({n}, kDouble).requires_grad_(true);
  auto changed = config;
  changed.initialLambda = 99.0;
  changed.cgMaxIterations = 50;
  engine::HessianFreeRule second(changed, {other});
  {
    torch::serialize::InputArchive archive;
    archive.load_from(stream);
    second.load(archive);
  }
  EXPECT_EQ(second.lambda(), first.lambda());
  EXPECT_EQ(second.iterationCap(), int64_t{2});
  EXPECT_EQ(second.totalCgIterations(), first.totalCgIterations());
  EXPECT(torch::equal(second.warmStart(), first.warmStart()));
}

MRNN_TEST(a_lambda_raised_step_after_step_says_the_run_has_stalled) {
  const auto raisedAtLatest = [](int64_t n) {
    engine::DampingRaises raises;
    for (int64_t i = 0; i < n; ++i) raises.record(true);
    return raises;
  };
  EXPECT(!engine::dampingRanAway(raisedAtLatest(39), 1e9));
  EXPECT(!engine::dampingRanAway(raisedAtLatest(40), 1e4));
  EXPECT(engine::dampingRanAway(raisedAtLatest(40), 1.1e4));
  EXPECT(engine::dampingRanAway(raisedAtLatest(40), std::numeric_limits<double>::infinity()));
  EXPECT(engine::dampingRanAway(raisedAtLatest(40), std::nan("")));
  // The window is the last 50 steps: older raises are forgotten.
  auto window = raisedAtLatest(60);
  EXPECT_EQ(window.count(), int64_t{50});
  for (int i = 0; i < 11; ++i) window.record(false);
  EXPECT_EQ(window.count(), int64_t{39});
  EXPECT(!engine::dampingRanAway(window, 1e9));

  const int64_t n = 4;
  const auto a = spdMatrix(n, 10.0, 19);
  const auto centre = torch::randn({n}, kDouble);
  auto theta = torch::zeros({n}, kDouble).requires_grad_(true);
  QuadraticObjective objective(a, centre, theta);
  auto config = exactConfig(n);
  config.initialLambda = 1.0;
  engine::HessianFreeRule rule(config, {theta});
  // A step that keeps what its model promised is recorded as not raising λ.
  objective.rising = true;
  for (int i = 0; i < 10; ++i) rule.update(objective, 0.0);
  EXPECT_EQ(rule.raises().count(), int64_t{10});
  objective.rising = false;
  EXPECT(!rule.update(objective, 0.0).stalled);
  EXPECT_EQ(rule.raises().count(), int64_t{10});
  EXPECT_EQ(rule.raises().bits() & 1u, uint64_t{0});

  // Every step rejected: λ rises by 3/2 each, past 10⁴ at the 23rd; the 40th says stalled,
  // the 39th does not. The window survives a checkpoint.
  theta.detach().zero_();
  engine::HessianFreeRule fresh(config, {theta});
  objective.rising = true;
  for (int i = 0; i < 30; ++i) EXPECT(!fresh.update(objective, 0.0).stalled);
  std::stringstream stream;
  {
    torch::serialize::OutputArchive archive;
    fresh.save(archive);
    archive.save_to(stream);
  }
  engine::HessianFreeRule resumed(config, {theta});
  {
    torch::serialize::InputArchive archive;
    archive.load_from(stream);
    resumed.load(archive);
  }
  EXPECT_EQ(resumed.raises().count(), int64_t{30});
  for (int i = 31; i < 40; ++i) EXPECT_MSG(!resumed.update(objective, 0.0).stalled, "step " << i);
  EXPECT(resumed.update(objective, 0.0).stalled);
  EXPECT_NEAR(resumed.lambda(), std::pow(1.5, 40), 1e-6 * std::pow(1.5, 40));

  // λ raised at four steps of five, lowered at the fifth, as a run at T = 200 did once its
  // steps no longer moved the weights: never 50 raises in a row, and still run away.
  config.initialLambda = 1e6;
  engine::HessianFreeRule mostly(config, {theta});
  int mostlyStalled = 0;
  for (int i = 1; i <= 100 && mostlyStalled == 0; ++i) {
    objective.rising = i % 5 != 0;
    if (mostly.update(objective, 0.0).stalled) mostlyStalled = i;
  }
  EXPECT_EQ(mostlyStalled, 49);  // the 40th raise
  objective.rising = true;

  // From a tiny λ, 40 raises are not enough: λ must also pass 10⁴ (91 raises from 1e-12).
  config.initialLambda = 1e-12;
  engine::HessianFreeRule tiny(config, {theta});
  int firstStalled = 0;
  for (int i = 1; i <= 100 && firstStalled == 0; ++i) {
    if (tiny.update(objective, 0.0).stalled) firstStalled = i;
  }
  EXPECT_EQ(firstStalled, 91);

  // A λ that overflowed no longer grows, and has still run away.
  config.initialLambda = 1e305;
  engine::HessianFreeRule overflowed(config, {theta});
  for (int i = 1; i < 40; ++i) overflowed.update(objective, 0.0);
  EXPECT(std::isinf(overflowed.lambda()));
  EXPECT_EQ(overflowed.raises().count(), int64_t{39});
  EXPECT(overflowed.update(objective, 0.0).stalled);
}

// A checkpoint written when the rule counted raises in a row reads as that many latest raises.
MRNN_TEST(an_older_checkpoint_counts_its_raises_in_a_row_as_the_latest) {
  const int64_t n = 4;
  auto theta = torch::zeros({n}, kDouble).requires_grad_(true);
  std::stringstream stream;
  {
    torch::serialize::OutputArchive archive;
    archive.write("lambda", c10::IValue(2.0e4));
    archive.write("iteration_cap", c10::IValue(int64_t{4}));
    archive.write("steps", c10::IValue(int64_t{80}));
    archive.write("cg_iterations", c10::IValue(int64_t{300}));
    archive.write("raised_in_a_row", c10::IValue(int64_t{45}));
    archive.save_to(stream);
  }
  engine::HessianFreeRule rule(exactConfig(n), {theta});
  torch::serialize::InputArchive archive;
  archive.load_from(stream);
  rule.load(archive);
  EXPECT_EQ(rule.raises().count(), int64_t{45});
  EXPECT_EQ(rule.raises().bits(), (uint64_t{1} << 45) - 1);
  EXPECT(engine::dampingRanAway(rule.raises(), rule.lambda()));
}

}  // namespace
