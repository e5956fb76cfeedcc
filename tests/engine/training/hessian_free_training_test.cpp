// Hessian-free in the training loop: two ranks compute what one process does (the loss, the
// gradient, every curvature product, the squared gradients, the update); a resumed run is
// the uninterrupted one, its λ and CG warm start included; a run reports its CG figures.

#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "engine/optim/hessian_free_rule.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/local_collective.h"
#include "engine/training/resumed_training.h"
#include "engine/training/window_objective.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"
#include "two_rank_group.h"

using namespace mrnn;
using namespace mrnn::test;
using torch::kDouble;

namespace {

constexpr int64_t kVocab = 6;
constexpr int64_t kBatch = 4;

// Made once on the test's thread: ranks on threads share one random generator, so each rank
// copies these rather than drawing its own.
struct Inputs {
  std::vector<torch::Tensor> weights;
  std::vector<engine::ObjectiveWindow> windows;
  torch::Tensor direction;
};

std::unique_ptr<engine::LanguageModel> tinyMrnn() {
  engine::ModelConfig config;
  config.input.embeddingSize = 4;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mrnn;
  layer.hiddenSize = 6;
  layer.mSize = 5;
  config.layers = {layer};
  auto model = std::make_unique<engine::LanguageModel>(config, kVocab);
  model->to(kDouble);
  torch::manual_seed(3);
  torch::NoGradGuard noGrad;
  for (auto& p : model->parameters()) p.normal_(0.0, 0.5);
  return model;
}

std::vector<engine::ObjectiveWindow> windows() {
  torch::manual_seed(11);
  std::vector<engine::ObjectiveWindow> out;
  for (int w = 0; w < 3; ++w) {
    engine::ObjectiveWindow window;
    window.inputs = torch::randint(0, kVocab, {5, kBatch}, torch::kLong);
    window.targets = torch::randint(0, kVocab, {5, kBatch}, torch::kLong);
    window.mask = (torch::rand({5, kBatch}) > 0.2).to(kDouble);
    out.push_back(window);
  }
  return out;
}

engine::HessianFreeConfig config() {
  engine::HessianFreeConfig hf;
  hf.gradientWindows = 3;
  hf.curvatureWindows = 2;
  hf.curvatureSequences = 2;  // streams 0 and 2: one on each rank
  hf.cgMaxIterations = 12;
  hf.initialLambda = 0.5;
  return hf;
}

struct Computed {
  double loss = 0.0;
  torch::Tensor gradient;
  torch::Tensor product;
  torch::Tensor squares;
  double curvatureLoss = 0.0;
  torch::Tensor weights;  // after one Hessian-free update on a fresh objective
  double lambda = 0.0;
};

torch::Tensor flat(const std::vector<torch::Tensor>& tensors, bool grads) {
  std::vector<torch::Tensor> pieces;
  for (const auto& t : tensors) pieces.push_back((grads ? t.grad() : t).detach().reshape({-1}));
  return torch::cat(pieces).clone();
}

Inputs makeInputs() {
  Inputs in;
  auto model = tinyMrnn();
  for (const auto& p : model->parameters()) in.weights.push_back(p.detach().clone());
  in.windows = windows();
  int64_t count = 0;
  for (const auto& w : in.weights) count += w.numel();
  torch::manual_seed(5);
  in.direction = torch::randn({count}, kDouble);
  return in;
}

Computed compute(engine::Collective& collective, const Inputs& in) {
  auto model = tinyMrnn();  // then its weights replaced by the shared ones
  {
    torch::NoGradGuard noGrad;
    auto parameters = model->parameters();
    for (size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(in.weights[i]);
  }
  const auto hf = config();
  engine::ObjectiveOptions options;
  options.shard = engine::streamShard(kBatch, collective.rank(), collective.size());
  options.shape = {hf.gradientWindows, hf.curvatureWindows, hf.curvatureSequences};
  Computed c;
  {
    engine::WindowObjective objective(*model, collective, model->initialState(options.shard.count),
                                      in.windows, options);
    c.loss = objective.lossAndGradient();
    c.gradient = flat(objective.parameters(), true);
    c.product = objective.curvatureProduct(in.direction, 0.3);
    c.squares = objective.squaredGradients();
    c.curvatureLoss = objective.loss(engine::DataShare::Curvature);
  }
  engine::WindowObjective objective(*model, collective, model->initialState(options.shard.count),
                                    in.windows, options);
  engine::HessianFreeRule rule(hf, model->parameters());
  rule.update(objective, 0.0);
  c.weights = flat(model->parameters(), false);
  c.lambda = rule.lambda();
  return c;
}

double maxDifference(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

}  // namespace

MRNN_TEST(two_ranks_compute_what_one_process_does) {
  const Inputs in = makeInputs();
  engine::LocalCollective local;
  const Computed one = compute(local, in);
  EXPECT(one.gradient.abs().sum().item<double>() > 0.0);
  Computed ranks[2];
  onTwoRanks(
      [&](int rank, engine::Collective& collective) { ranks[rank] = compute(collective, in); });
  for (const Computed& r : ranks) {
    EXPECT_NEAR(r.loss, one.loss, 1e-12);
    EXPECT_NEAR(r.curvatureLoss, one.curvatureLoss, 1e-12);
    EXPECT_MSG(maxDifference(r.gradient, one.gradient) < 1e-12,
               "gradient " << maxDifference(r.gradient, one.gradient));
    EXPECT_MSG(maxDifference(r.product, one.product) < 1e-12,
               "curvature product " << maxDifference(r.product, one.product));
    EXPECT_MSG(maxDifference(r.squares, one.squares) < 1e-12,
               "squared gradients " << maxDifference(r.squares, one.squares));
    EXPECT_MSG(maxDifference(r.weights, one.weights) < 1e-10,
               "update " << maxDifference(r.weights, one.weights));
    EXPECT_EQ(r.lambda, one.lambda);
  }
}

namespace {

engine::Project hessianFreeProject(const ScratchProject& scratch, int64_t steps) {
  auto project = scratch.project();
  project.training.optimizer.kind = engine::OptimizerKind::HessianFree;
  auto& hf = project.training.optimizer.hessianFree;
  hf.gradientWindows = 3;
  hf.curvatureWindows = 1;
  hf.curvatureSequences = 2;
  hf.cgMaxIterations = 8;
  project.training.maxSteps = steps;
  project.training.validateEvery = 2;
  project.training.checkpointEvery = 2;
  return project;
}

// λ, the warm start and the cap a run's checkpoint holds.
engine::HessianFreeRule ruleOf(const engine::Project& project, const std::string& checkpoint) {
  auto model = loadWeights(project, checkpoint);
  engine::HessianFreeRule rule(project.training.optimizer.hessianFree, model->parameters());
  auto opened = engine::Checkpoint::open(checkpoint);
  EXPECT(opened.loadRule(rule));
  return rule;
}

}  // namespace

MRNN_TEST(a_resumed_hessian_free_run_is_the_uninterrupted_one) {
  ScratchProject whole("hf-whole");
  ScratchProject split("hf-split");
  const auto uninterrupted = trainToEnd(hessianFreeProject(whole, 4));
  EXPECT_MSG(uninterrupted.finished, uninterrupted.reason);
  const auto first = trainToEnd(hessianFreeProject(split, 2));
  EXPECT_MSG(first.finished, first.reason);
  const auto project = hessianFreeProject(split, 4);
  const auto second =
      trainToEnd(project, first.latestCheckpoint, engine::lengthOf(project.training));
  EXPECT_MSG(second.finished, second.reason);
  EXPECT_EQ(second.steps, int64_t{4});
  const std::string differing =
      firstDifferentWeight(project, uninterrupted.latestCheckpoint, second.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs after 2 + 2 Hessian-free steps from 4");
  const auto a = ruleOf(project, uninterrupted.latestCheckpoint);
  const auto b = ruleOf(project, second.latestCheckpoint);
  EXPECT_EQ(a.lambda(), b.lambda());
  EXPECT(a.lambda() != project.training.optimizer.hessianFree.initialLambda);
  EXPECT(torch::equal(a.warmStart(), b.warmStart()));
  EXPECT_EQ(a.iterationCap(), int64_t{8});
  EXPECT_EQ(a.totalCgIterations(), b.totalCgIterations());
}

MRNN_TEST(a_hessian_free_run_records_its_cg_figures_and_symbols) {
  ScratchProject scratch("hf-figures");
  const auto outcome = trainToEnd(hessianFreeProject(scratch, 3));
  EXPECT_MSG(outcome.finished, outcome.reason);
  engine::RunStore store(engine::RunPaths::database(scratch.folder().string()));
  for (const char* name :
       {engine::metric::kCgIterations, engine::metric::kLambda, engine::metric::kRho,
        engine::metric::kBacktrackedIterate, engine::metric::kStepSize}) {
    EXPECT_MSG(store.metrics(outcome.runId, name).size() == size_t{3}, name);
  }
  for (const auto& point : store.metrics(outcome.runId, engine::metric::kCgIterations)) {
    EXPECT(point.value >= 1 && point.value <= 8);
  }
  // No learning rate: Hessian-free has none to record.
  EXPECT(store.metrics(outcome.runId, engine::metric::kLearningRate).empty());
  // Each step reads 3 windows of 4 streams: the symbols axis grows by what was read.
  const auto symbols = store.metrics(outcome.runId, engine::metric::kSymbols);
  EXPECT_EQ(symbols.size(), size_t{3});
  EXPECT(symbols[1].value > symbols[0].value && symbols[2].value > symbols[1].value);
}

// Every cell of the zoo trains by Hessian-free: its fused window's backward (the kept graph)
// and its per-step loop's forward derivatives (the products), two steps each.
MRNN_TEST(every_cell_trains_by_hessian_free) {
  for (const engine::CellType type : engine::allCellTypes()) {
    const std::string name = engine::cellTypeName(type);
    ScratchProject scratch("hf-cell-" + name);
    auto project = hessianFreeProject(scratch, 2);
    engine::LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = 8;
    layer.mSize = 6;
    layer.rank = 4;  // the Mogrifier's, below the embedding's width
    project.model.layers = {layer};
    project.training.optimizer.hessianFree.cgMaxIterations = 4;
    const auto outcome = trainToEnd(project);
    EXPECT_MSG(outcome.finished, name << ": " << outcome.reason);
    EXPECT_MSG(std::isfinite(outcome.test) && outcome.test > 0.0, name);
  }
}

// The defect: a Hessian-free step over many windows ignored SIGTERM for minutes. A stop inside
// a step (its gradient, CG, backtracking) is honoured within a window's time, the step is
// abandoned whole (weights, λ, warm start, the data's position and the masks' draw), and the
// resumed run is the uninterrupted one.
MRNN_TEST(a_stop_inside_a_hessian_free_step_is_honoured_and_the_step_taken_again) {
  ScratchProject whole("hf-stop-whole");
  ScratchProject split("hf-stop-split");
  const auto longSteps = [](const ScratchProject& scratch) {
    auto project = hessianFreeProject(scratch, 2);
    scratch.project(100000);  // a corpus of more than a step's 600 windows
    project.training.optimizer.hessianFree.gradientWindows = 600;
    project.training.checkpointEvery = 0;
    project.training.validateEvery = 0;
    return project;
  };
  const auto reference = trainToEnd(longSteps(whole));
  EXPECT_MSG(reference.finished, reference.reason);

  engine::StopToken control;
  std::atomic<bool> firstStepDone{false};
  std::atomic<double> stepSeconds{0.0};
  engine::Trainer trainer(longSteps(split), [&](engine::TrainingEvent event) {
    if (const auto* step = std::get_if<engine::StepEvent>(&event); step && step->step == 1) {
      stepSeconds = step->wallSeconds;
      firstStepDone = true;
    }
  });
  std::chrono::steady_clock::time_point requested;
  const auto began = std::chrono::steady_clock::now();
  std::thread stopper([&] {
    while (!firstStepDone) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // Half a step into step 2.
    std::this_thread::sleep_for(std::chrono::duration<double>(stepSeconds / 2));
    requested = std::chrono::steady_clock::now();
    control.requestStop();
  });
  const auto outcome = trainer.run(control, "", {});
  const double latency =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - requested).count();
  stopper.join();
  const double sinceStart = std::chrono::duration<double>(requested - began).count();
  EXPECT_MSG(outcome.stopped, "steps " << outcome.steps << ", a step " << stepSeconds
                                       << " s, the stop requested after " << sinceStart << " s; "
                                       << outcome.reason);
  EXPECT_EQ(outcome.steps, int64_t{1});
  // Within a second, the final checkpoint's writing included (the test's machine is shared).
  EXPECT_MSG(latency < 1.5, "the stop took " << latency << " s");

  const auto project = longSteps(split);
  const auto resumed =
      trainToEnd(project, outcome.latestCheckpoint, engine::lengthOf(project.training));
  EXPECT_MSG(resumed.finished, resumed.reason);
  EXPECT_EQ(resumed.steps, int64_t{2});
  const std::string differing =
      firstDifferentWeight(project, reference.latestCheckpoint, resumed.latestCheckpoint);
  EXPECT_MSG(differing.empty(), differing << " differs from the run that was not stopped");
  const auto a = ruleOf(project, reference.latestCheckpoint);
  const auto b = ruleOf(project, resumed.latestCheckpoint);
  EXPECT_EQ(a.lambda(), b.lambda());
  EXPECT(torch::equal(a.warmStart(), b.warmStart()));
  EXPECT_EQ(a.totalCgIterations(), b.totalCgIterations());
}
