// Optimisers and learning-rate schedules: known answers computed by hand (double precision),
// exact resumption through torch::serialize, and the learning-rate accessors for every kind.

#include <torch/torch.h>

#include <cmath>
#include <sstream>

#include "engine/optim/lr_schedule.h"
#include "engine/optim/nt_asgd.h"
#include "engine/optim/optimizer_factory.h"
#include "engine/optim/rmsprop_normalized.h"
#include "test_harness.h"

using namespace mrnn;
using engine::OptimizerKind;
using engine::ScheduleKind;

namespace {

// A validation loss told to whichever optimiser this is (the loops below run every kind):
// NT-ASGD decides on it whether to average; the others have nothing to do with it.
void notifyValidation(torch::optim::Optimizer& optimizer, double loss) {
  if (auto* asgd = dynamic_cast<engine::NtAsgd*>(&optimizer)) asgd->notifyValidation(loss);
}

const auto kDouble = torch::TensorOptions().dtype(torch::kDouble);

torch::Tensor leaf(std::vector<double> values) {
  return torch::tensor(values, kDouble).requires_grad_(true);
}

// Sets the gradient of `p` to `g` (through backward, the way training does).
void setGradient(torch::optim::Optimizer& optimizer, const torch::Tensor& p,
                 const std::vector<double>& g) {
  optimizer.zero_grad();
  (p * torch::tensor(g, kDouble)).sum().backward();
}

// Gradient of 0.5 |p|² + p·c for every parameter: changes as the parameters move.
void quadraticGradient(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& ps) {
  optimizer.zero_grad();
  torch::Tensor loss;
  for (const auto& p : ps) {
    const auto c = torch::linspace(-1, 1, p.numel(), kDouble).to(p.device());
    const torch::Tensor term = 0.5 * p.square().sum() + (p * c).sum();
    loss = loss.defined() ? loss + term : term;
  }
  loss.backward();
}

std::vector<double> values(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

engine::OptimizerConfig configFor(OptimizerKind kind) {
  engine::OptimizerConfig c;
  c.kind = kind;
  c.learningRate = 0.01;
  c.momentum = (kind == OptimizerKind::Sgd || kind == OptimizerKind::Rmsprop) ? 0.9 : 0.0;
  c.weightDecay = 0.001;
  c.updateLength = 0.2;
  c.updateLengthDecay = 0.9;
  c.nonMonotone = 1;
  return c;
}

const std::vector<OptimizerKind> kAllKinds{OptimizerKind::Adam,
                                           OptimizerKind::AdamW,
                                           OptimizerKind::Rmsprop,
                                           OptimizerKind::Sgd,
                                           OptimizerKind::RmspropNormalized,
                                           OptimizerKind::NtAsgd};

}  // namespace

// Krause eq. 22 by hand: s = (1-a) g², v* = g / (sqrt(s) + eps), step = l v*/|v*|, then
// s = a s + (1-a) g² and l *= decay.
MRNN_TEST(rmsprop_normalized_first_steps_known_answer) {
  const std::vector<double> p0{0.5, -1.0, 2.0};
  const std::vector<double> g{1.0, -2.0, 3.0};
  const double a = 0.9, eps = 1e-8, l0 = 0.1, decay = 0.5;
  torch::Tensor p = leaf(p0);
  engine::RmspropNormalized opt(
      {p}, engine::RmspropNormalizedOptions(l0).length_decay(decay).alpha(a).eps(eps));

  std::vector<double> expected = p0;
  std::vector<double> s(3, 0.0);
  double length = l0;
  for (int step = 0; step < 3; ++step) {
    EXPECT_NEAR(opt.nextUpdateLength(), length, 1e-18);
    std::vector<double> v(3);
    for (int i = 0; i < 3; ++i) {
      s[i] = a * s[i] + (1 - a) * g[i] * g[i];
      v[i] = g[i] / (std::sqrt(s[i]) + eps);
    }
    const double vNorm = norm(v);
    const std::vector<double> before = values(p);
    setGradient(opt, p, g);
    opt.step();
    const std::vector<double> after = values(p);
    std::vector<double> moved(3);
    for (int i = 0; i < 3; ++i) {
      expected[i] -= length * v[i] / vNorm;
      moved[i] = after[i] - before[i];
      EXPECT_NEAR(after[i], expected[i], 1e-15);
    }
    EXPECT_NEAR(norm(moved), length, 1e-15);  // the update has length exactly l
    length *= decay;
  }
  EXPECT_EQ(opt.stepCount(), int64_t{3});
}

// The direction is RMSprop's: torch::optim::RMSprop with lr 1 moves by v* itself.
MRNN_TEST(rmsprop_normalized_direction_is_rmsprops) {
  const std::vector<double> g{0.3, -4.0, 0.05};
  torch::Tensor p = leaf({1.0, 2.0, 3.0});
  torch::Tensor q = leaf({1.0, 2.0, 3.0});
  engine::RmspropNormalized normalized({p}, engine::RmspropNormalizedOptions(0.7).alpha(0.95));
  torch::optim::RMSprop plain({q}, torch::optim::RMSpropOptions(1.0).alpha(0.95).eps(1e-8));
  setGradient(normalized, p, g);
  normalized.step();
  setGradient(plain, q, g);
  plain.step();
  const auto u = values(p - 1.0 - torch::arange(3, kDouble));
  const auto v = values(q - 1.0 - torch::arange(3, kDouble));
  const double nu = norm(u), nv = norm(v);
  EXPECT_NEAR(nu, 0.7, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(u[i] / nu, v[i] / nv, 1e-15);
}

// The length is that of all parameters' updates together, not of each tensor's.
MRNN_TEST(rmsprop_normalized_normalises_the_whole_update) {
  torch::Tensor a = leaf({1.0, 2.0});
  torch::Tensor b = leaf({-1.0, 0.5, 4.0});
  engine::RmspropNormalized opt({a, b}, engine::RmspropNormalizedOptions(0.3));
  const auto a0 = values(a), b0 = values(b);
  quadraticGradient(opt, {a, b});
  opt.step();
  std::vector<double> moved;
  for (size_t i = 0; i < a0.size(); ++i) moved.push_back(values(a)[i] - a0[i]);
  for (size_t i = 0; i < b0.size(); ++i) moved.push_back(values(b)[i] - b0[i]);
  EXPECT_NEAR(norm(moved), 0.3, 1e-15);
  // A zero gradient moves nothing (no division by zero).
  torch::Tensor c = leaf({1.0, 2.0});
  engine::RmspropNormalized still({c}, engine::RmspropNormalizedOptions(0.3));
  setGradient(still, c, {0.0, 0.0});
  still.step();
  EXPECT(torch::equal(c, torch::tensor({1.0, 2.0}, kDouble)));
}

MRNN_TEST(nt_asgd_before_the_trigger_is_sgd) {
  torch::Tensor p = leaf({0.5, -1.0, 2.0, 0.25});
  torch::Tensor q = leaf({0.5, -1.0, 2.0, 0.25});
  engine::NtAsgd asgd({p}, engine::NtAsgdOptions(0.3).weight_decay(0.01).non_monotone(2));
  torch::optim::SGD sgd({q}, torch::optim::SGDOptions(0.3).weight_decay(0.01));
  for (int step = 0; step < 4; ++step) {
    quadraticGradient(asgd, {p});
    asgd.step();
    quadraticGradient(sgd, {q});
    sgd.step();
    EXPECT(torch::equal(p, q));
    asgd.notifyValidation(5.0 - step);  // improving: never triggers
  }
  EXPECT(!asgd.averaging());
  EXPECT(!engine::swapAveragedWeights(asgd));  // nothing to swap before the switch
  EXPECT(torch::equal(p, q));
}

// Merity et al.: at check t (0-based), switch when t > n and loss > min(logs[0..t-n-1]).
// n = 2 and losses 5, 4, 3, 3.5, 3.6, 3.7: 3.5 and 3.6 are not worse than min(5) and
// min(5, 4); 3.7 is worse than min(5, 4, 3) = 3, so the sixth check (t = 5) switches.
MRNN_TEST(nt_asgd_triggers_at_the_documented_check) {
  torch::Tensor p = leaf({1.0});
  engine::NtAsgd asgd({p}, engine::NtAsgdOptions(0.1).non_monotone(2));
  const std::vector<double> losses{5, 4, 3, 3.5, 3.6, 3.7, 2.0};
  std::vector<bool> switched;
  for (double loss : losses) switched.push_back(asgd.notifyValidation(loss));
  EXPECT(switched == (std::vector<bool>{false, false, false, false, false, true, false}));
  EXPECT_EQ(asgd.triggerCheck(), int64_t{5});
  EXPECT(asgd.averaging());
  EXPECT_EQ(asgd.validationLosses().size(), losses.size());

  // n = 1: the fourth check compares 3.5 with min(5, 4) and does not switch; the fifth
  // compares 3.6 with min(5, 4, 3) and does.
  torch::Tensor q = leaf({1.0});
  engine::NtAsgd tight({q}, engine::NtAsgdOptions(0.1).non_monotone(1));
  for (double loss : {5.0, 4.0, 3.0, 3.5}) EXPECT(!tight.notifyValidation(loss));
  EXPECT(tight.notifyValidation(3.6));
  EXPECT_EQ(tight.triggerCheck(), int64_t{4});
}

// The averaged weights are the mean of the iterates after each step since the switch.
MRNN_TEST(nt_asgd_averages_the_iterates_since_the_switch) {
  torch::Tensor p = leaf({0.5, -1.0, 2.0});
  engine::NtAsgd asgd({p}, engine::NtAsgdOptions(0.25).non_monotone(1));
  quadraticGradient(asgd, {p});
  asgd.step();  // before the switch: not averaged
  for (double loss : {3.0, 2.0, 3.5}) asgd.notifyValidation(loss);  // 3.5 > min(3)
  EXPECT(asgd.averaging());
  // Swapping right after the switch is harmless: the mean starts at the current weights.
  const auto atSwitch = values(p);
  EXPECT(engine::swapAveragedWeights(asgd));
  EXPECT(values(p) == atSwitch);
  EXPECT(engine::swapAveragedWeights(asgd));

  // By hand: the gradient of 0.5 p² + c·p is p + c, so w <- w - lr (w + c).
  const std::vector<double> c{-1.0, 0.0, 1.0};
  std::vector<double> w = atSwitch;
  std::vector<double> sum(3, 0.0);
  for (int step = 0; step < 3; ++step) {
    quadraticGradient(asgd, {p});
    asgd.step();
    for (int i = 0; i < 3; ++i) {
      w[i] -= 0.25 * (w[i] + c[i]);
      sum[i] += w[i];
    }
  }
  EXPECT_EQ(asgd.averagedSteps(), int64_t{3});
  const auto raw = values(p);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(raw[i], w[i], 1e-15);

  EXPECT(!engine::averagedWeightsIn(asgd));
  EXPECT(engine::swapAveragedWeights(asgd));
  EXPECT(engine::averagedWeightsIn(asgd));
  const auto averaged = values(p);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(averaged[i], sum[i] / 3.0, 1e-15);
  EXPECT_THROWS_WITH(c10::Error, asgd.step(), "swapped in");
  EXPECT(engine::swapAveragedWeights(asgd));
  EXPECT(values(p) == raw);  // swapping twice restores the iterate exactly
}

// The trainer saves its best checkpoint while the mean is swapped in: the model then holds
// the mean and the optimiser the iterate. Loading (model first) swaps back, so training
// resumes from the iterate exactly.
MRNN_TEST(nt_asgd_state_saved_while_swapped_resumes_from_the_iterate) {
  torch::Tensor p = leaf({0.5, -1.0, 2.0});
  engine::NtAsgd first({p}, engine::NtAsgdOptions(0.25).non_monotone(1));
  for (double loss : {3.0, 2.0, 3.5}) first.notifyValidation(loss);
  for (int step = 0; step < 2; ++step) {
    quadraticGradient(first, {p});
    first.step();
  }
  const auto iterate = values(p);
  EXPECT(first.swapAveragedWeights());
  const auto mean = values(p);
  std::stringstream stream;
  {
    torch::serialize::OutputArchive archive;
    first.save(archive);
    archive.save_to(stream);
  }
  torch::Tensor q = p.detach().clone().requires_grad_(true);  // "the model", saved swapped
  engine::NtAsgd second({q}, engine::NtAsgdOptions(0.25).non_monotone(1));
  {
    torch::serialize::InputArchive archive;
    archive.load_from(stream);
    second.load(archive);
  }
  EXPECT(!second.averagedWeightsIn());
  EXPECT(values(q) == iterate);
  EXPECT(first.swapAveragedWeights());
  for (int step = 0; step < 2; ++step) {
    quadraticGradient(first, {p});
    first.step();
    quadraticGradient(second, {q});
    second.step();
  }
  EXPECT(torch::equal(p, q));
  EXPECT(first.swapAveragedWeights() && second.swapAveragedWeights());
  EXPECT(torch::equal(p, q));
  EXPECT(values(p) != mean);
}

// Adam with beta1 = 0 (Melis et al.): m = g, v = (1-b2) g², both bias-corrected, so the first
// step is lr g / (|g| + eps).
MRNN_TEST(adam_beta1_zero_one_step_by_hand) {
  auto config = configFor(OptimizerKind::Adam);
  config.beta1 = 0.0;
  config.beta2 = 0.98;
  config.epsilon = 1e-6;
  config.weightDecay = 0.0;
  config.learningRate = 0.002;
  torch::Tensor p = leaf({0.5, -1.0, 2.0});
  auto opt = engine::makeOptimizer(config, {p});
  const std::vector<double> g{0.1, -3.0, 0.0};
  setGradient(*opt, p, g);
  opt->step();
  const std::vector<double> p0{0.5, -1.0, 2.0};
  const auto p1 = values(p);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p1[i], p0[i] - 0.002 * g[i] / (std::fabs(g[i]) + 1e-6), 1e-15);
  }
}

// Save after a few steps, load into a fresh optimiser over copies of the parameters, and one
// more step must give bit-identical parameters.
MRNN_TEST(save_and_load_resume_every_optimizer_exactly) {
  for (OptimizerKind kind : kAllKinds) {
    const auto config = configFor(kind);
    torch::Tensor a = leaf({0.5, -1.0, 2.0});
    torch::Tensor b = leaf({0.1, 0.2});
    auto first = engine::makeOptimizer(config, {a, b});
    for (int step = 0; step < 3; ++step) {
      quadraticGradient(*first, {a, b});
      first->step();
      notifyValidation(*first, step == 2 ? 9.0 : 5.0 - step);  // NT-ASGD switches
    }
    quadraticGradient(*first, {a, b});
    first->step();  // one averaged step

    std::stringstream stream;
    {
      torch::serialize::OutputArchive archive;
      first->save(archive);
      archive.save_to(stream);
    }
    torch::Tensor a2 = a.detach().clone().requires_grad_(true);
    torch::Tensor b2 = b.detach().clone().requires_grad_(true);
    auto second = engine::makeOptimizer(config, {a2, b2});
    {
      torch::serialize::InputArchive archive;
      archive.load_from(stream);
      second->load(archive);
    }
    for (int step = 0; step < 2; ++step) {
      quadraticGradient(*first, {a, b});
      first->step();
      quadraticGradient(*second, {a2, b2});
      second->step();
    }
    const std::string name = engine::optimizerKindName(kind);
    EXPECT_MSG(torch::equal(a, a2) && torch::equal(b, b2), name);
    if (kind == OptimizerKind::NtAsgd) {
      auto& x = dynamic_cast<engine::NtAsgd&>(*first);
      auto& y = dynamic_cast<engine::NtAsgd&>(*second);
      EXPECT(y.averaging());
      EXPECT_EQ(y.averagedSteps(), x.averagedSteps());
      EXPECT_EQ(y.triggerCheck(), x.triggerCheck());
      EXPECT(y.validationLosses() == x.validationLosses());
      EXPECT(engine::swapAveragedWeights(x) && engine::swapAveragedWeights(y));
      EXPECT(torch::equal(a, a2) && torch::equal(b, b2));
    }
    if (kind == OptimizerKind::RmspropNormalized) {
      const auto& y = dynamic_cast<const engine::RmspropNormalized&>(*second);
      EXPECT_EQ(y.stepCount(), int64_t{6});
      EXPECT_NEAR(y.nextUpdateLength(), 0.2 * std::pow(0.9, 6), 1e-18);
    }
  }
}

// A checkpoint is read onto the CPU; the state must follow CUDA parameters to step again.
MRNN_TEST(optimizer_state_follows_cuda_parameters) {
  if (!torch::cuda::is_available()) MRNN_SKIP("no CUDA device");
  const auto cuda = torch::TensorOptions().dtype(torch::kDouble).device(torch::kCUDA);
  for (OptimizerKind kind : kAllKinds) {
    torch::Tensor p = torch::tensor({0.5, -1.0, 2.0}, cuda).requires_grad_(true);
    auto first = engine::makeOptimizer(configFor(kind), {p});
    for (int step = 0; step < 3; ++step) {
      quadraticGradient(*first, {p});
      first->step();
      notifyValidation(*first, step == 2 ? 9.0 : 5.0 - step);
    }
    std::stringstream stream;
    torch::serialize::OutputArchive out;
    first->save(out);
    out.save_to(stream);
    torch::Tensor q = p.detach().clone().requires_grad_(true);
    auto second = engine::makeOptimizer(configFor(kind), {q});
    torch::serialize::InputArchive in;
    in.load_from(stream, torch::Device(torch::kCPU));
    second->load(in);
    engine::moveStateToParameterDevices(*second);
    quadraticGradient(*first, {p});
    first->step();
    quadraticGradient(*second, {q});
    second->step();
    EXPECT_MSG(torch::equal(p, q), engine::optimizerKindName(kind));
  }
}

MRNN_TEST(learning_rate_reads_and_sets_every_kind) {
  for (OptimizerKind kind : kAllKinds) {
    const auto config = configFor(kind);
    torch::Tensor p = leaf({1.0, 2.0});
    auto opt = engine::makeOptimizer(config, {p});
    const std::string name = engine::optimizerKindName(kind);
    const double initial = kind == OptimizerKind::RmspropNormalized ? 0.2 : 0.01;
    EXPECT_MSG(engine::learningRate(*opt) == initial, name);
    engine::setLearningRate(*opt, 0.125);
    EXPECT_MSG(engine::learningRate(*opt) == 0.125, name);
    EXPECT_MSG(opt->param_groups().front().options().get_lr() == 0.125, name);
    notifyValidation(*opt, 1.0);  // harmless for all
  }
  // The rate set is the one used: SGD moves by lr g, the normalised RMSprop by lr.
  torch::Tensor p = leaf({1.0, 2.0});
  auto plain = configFor(OptimizerKind::Sgd);
  plain.weightDecay = 0.0;
  auto sgd = engine::makeOptimizer(plain, {p});
  engine::setLearningRate(*sgd, 0.5);
  setGradient(*sgd, p, {1.0, -1.0});
  sgd->step();
  EXPECT(torch::equal(p, torch::tensor({0.5, 2.5}, kDouble)));
  torch::Tensor q = leaf({1.0, 2.0});
  auto normalized = engine::makeOptimizer(configFor(OptimizerKind::RmspropNormalized), {q});
  engine::setLearningRate(*normalized, 0.5);
  setGradient(*normalized, q, {3.0, -4.0});
  normalized->step();
  EXPECT_NEAR(norm(values(q - torch::tensor({1.0, 2.0}, kDouble))), 0.5, 1e-15);
}

MRNN_TEST(lr_schedule_values_by_hand) {
  engine::ScheduleConfig c;
  const double base = 1e-3;

  engine::LrSchedule constant(c, base, 100, 10);
  EXPECT_EQ(constant.rate(0), base);
  EXPECT_EQ(constant.rate(1000), base);

  c.kind = ScheduleKind::Linear;
  c.floor = 1e-4;
  engine::LrSchedule linear(c, base, 100, 10);
  EXPECT_NEAR(linear.rate(0), 1e-3, 1e-18);
  EXPECT_NEAR(linear.rate(50), 5.5e-4, 1e-18);
  EXPECT_NEAR(linear.rate(100), 1e-4, 1e-18);
  EXPECT_NEAR(linear.rate(500), 1e-4, 1e-18);  // flat after the end

  c.kind = ScheduleKind::Exponential;
  c.gamma = 0.5;
  engine::LrSchedule exponential(c, base, 100, 10);
  EXPECT_NEAR(exponential.rate(0), 1e-3, 1e-18);
  EXPECT_NEAR(exponential.rate(5), 1e-3 / std::sqrt(2.0), 1e-18);
  EXPECT_NEAR(exponential.rate(10), 5e-4, 1e-18);
  EXPECT_NEAR(exponential.rate(20), 2.5e-4, 1e-18);

  c.kind = ScheduleKind::Steps;
  c.gamma = 0.1;
  c.milestones = {2, 5};
  engine::LrSchedule steps(c, base, 100, 10);
  EXPECT_NEAR(steps.rate(19), 1e-3, 1e-18);  // epoch 1
  EXPECT_NEAR(steps.rate(20), 1e-4, 1e-18);  // epoch 2: first milestone
  EXPECT_NEAR(steps.rate(49), 1e-4, 1e-18);
  EXPECT_NEAR(steps.rate(50), 1e-5, 1e-18);  // epoch 5: second
  EXPECT_NEAR(steps.rate(990), 1e-5, 1e-18);
}

MRNN_TEST(lr_schedule_plateau_decays_after_patience) {
  engine::ScheduleConfig c;
  c.kind = ScheduleKind::Plateau;
  c.patience = 2;
  c.factor = 0.5;
  c.floor = 2e-4;
  engine::LrSchedule plateau(c, 1e-3, 0, 10);
  const auto feed = [&plateau](double loss) {
    plateau.onValidation(loss);
    return plateau.rate(0);
  };
  EXPECT_EQ(feed(3.0), 1e-3);  // best so far
  EXPECT_EQ(feed(3.1), 1e-3);  // one without improvement
  EXPECT_EQ(feed(3.0), 5e-4);  // two (equal is not better): halve
  EXPECT_EQ(feed(2.0), 5e-4);  // improvement resets the count
  EXPECT_EQ(feed(2.5), 5e-4);
  EXPECT_EQ(feed(2.5), 2.5e-4);
  EXPECT_EQ(feed(2.6), 2.5e-4);
  EXPECT_EQ(feed(2.6), 2e-4);  // not below the floor
  EXPECT_EQ(plateau.rate(12345), 2e-4);
}

MRNN_TEST(lr_schedule_state_round_trips) {
  engine::ScheduleConfig c;
  c.kind = ScheduleKind::Plateau;
  c.patience = 2;
  c.factor = 0.3;
  engine::LrSchedule a(c, 0.1, 0, 10);
  engine::LrSchedule fresh(c, 0.1, 0, 10);
  fresh.restoreState(a.saveState());  // the initial state (best loss infinite) too
  for (double loss : {3.0, 2.9, 3.1, 3.2, 2.95}) a.onValidation(loss);
  engine::LrSchedule b(c, 0.1, 0, 10);
  b.restoreState(a.saveState());
  EXPECT_EQ(b.rate(0), a.rate(0));
  EXPECT_NEAR(a.rate(0), 0.03, 1e-15);
  for (double loss : {2.95, 3.0, 2.8, 2.85, 2.9}) {
    a.onValidation(loss);
    b.onValidation(loss);
    fresh.onValidation(loss);
    EXPECT_EQ(b.rate(0), a.rate(0));
  }
  EXPECT_NEAR(fresh.rate(0), 0.03, 1e-15);  // 2.95 best, then 2.8; 2.85 and 2.9 decay
  EXPECT_EQ(b.saveState(), a.saveState());
  EXPECT_THROWS_WITH(std::invalid_argument, b.restoreState("plateau_rate=x"), "bad number");
  EXPECT_THROWS_WITH(std::invalid_argument, b.restoreState("rate=1"), "unknown entry");
}
