// Training on the long-range problems and with a time budget: a problem's run reads fresh
// sequences each from the initial state, validates and tests on its error rate, records it,
// and is scored again by the runs table's "evaluate on test"; the addition problem trains its
// linear output on real targets; training.max_seconds ends a run finished, tested, and
// training.stop_when_solved at the validation that solves it; a window that starts afresh
// ignores the state it is handed.

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_file.h"
#include "engine/data/long_range_problem.h"
#include "engine/models/language_model.h"
#include "engine/optim/runaway_damping.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/local_collective.h"
#include "engine/training/resume_state.h"
#include "engine/training/run_counters.h"
#include "engine/training/run_end.h"
#include "engine/training/run_test_evaluation.h"
#include "engine/training/training_data.h"
#include "engine/training/training_parts.h"
#include "engine/training/validation_book.h"
#include "engine/training/window_objective.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

engine::Project problemProject(const ScratchProject& scratch, const std::string& problem,
                               const std::string& optimizer) {
  const bool addition = problem == "addition";
  auto project = engine::parseProject(
      std::string("name: problem\nmodel:\n  input: {level: word, embedding_size: 0") +
          (addition ? ", values: 1" : "") +
          "}\n  layers:\n    - {type: rnn, hidden_size: 12}\n  output: {type: " +
          (addition ? "linear" : "softmax") + "}\ndata:\n  synthetic: " + problem +
          "\n  problem: {length: 20, train: 64, valid: 24, test: 40, seed: 3}\n"
          "training:\n  batch_size: 8\n  max_steps: 6\n  validate_every: 3\n"
          "  checkpoint_every: 3\n  threads: 1\n  optimizer: " +
          optimizer + "\nevaluation: {batch_size: 8}\n",
      scratch.file("project.yaml"));
  project.folder = scratch.folder().string();
  return project;
}

}  // namespace

MRNN_TEST(a_problem_run_validates_and_tests_on_its_error_rate) {
  ScratchProject scratch("problem-run");
  const auto project = problemProject(scratch, "temporal_order_2bit", "{type: adam, lr: 0.01}");
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  EXPECT(outcome.testErrorRate >= 0.0 && outcome.testErrorRate <= 1.0);
  engine::RunStore store(engine::RunPaths::database(scratch.folder().string()));
  EXPECT_EQ(store.metrics(outcome.runId, engine::metric::kValidErrorRate).size(), size_t{2});
  EXPECT_EQ(store.metrics(outcome.runId, engine::metric::kTestErrorRate).size(), size_t{1});
  // A window reads 8 sequences of the problem's 22 steps (T = 20 to 1.1 T).
  const auto symbols = store.metrics(outcome.runId, engine::metric::kSymbols);
  EXPECT_EQ(symbols.back().value, 6.0 * 8 * 22);
  // "Evaluate on test" scores the same sequences the same way.
  const auto again = engine::evaluateRunOnTest(scratch.folder().string(), outcome.runId);
  EXPECT(again.figures.errorRate >= 0.0);
  EXPECT_NEAR(again.figures.errorRate,
              store.metrics(outcome.runId, engine::metric::kTestErrorRate).back().value, 1e-12);
  // The analyses read text; a problem's sequences are not one: said, not misread.
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::heldOutSplit(project, engine::Vocabulary(), "test"),
                     "long-range problem", "temporal_order_2bit");
}

// A memorisation model that gets some patterns wrong was scored as one figure: which recalled
// symbol it misses is what a researcher looks at next. Each answer step's share of wrong
// sequences comes with the error rate, in order; a problem with one answer gives none.
MRNN_TEST(held_out_scores_say_which_answer_step_is_wrong) {
  ScratchProject scratch("answer-steps");
  for (const auto& [problem, steps] : std::vector<std::pair<std::string, size_t>>{
           {"memorization_5bit", 5}, {"temporal_order_2bit", 0}}) {
    const auto project = problemProject(scratch, problem, "{type: adam, lr: 0.01}");
    const engine::TrainingData data(project, [](const std::string&) {});
    engine::LanguageModel model(project.model, data.vocabulary().size());
    engine::EvalOptions options;
    options.batch = 8;
    const auto figures =
        data.evaluate(engine::TrainingData::HeldOut::Test, model, options, nullptr);
    EXPECT_EQ(figures.answerErrorRates.size(), steps);
    double most = 0.0;
    double sum = 0.0;
    for (const double rate : figures.answerErrorRates) {
      // A share of the 40 test sequences.
      EXPECT_NEAR(rate * 40.0, std::round(rate * 40.0), 1e-9);
      most = std::max(most, rate);
      sum += rate;
    }
    // A sequence is wrong when any of its answers is.
    EXPECT_MSG(figures.errorRate >= most - 1e-12, problem);
    EXPECT_MSG(steps == 0 || figures.errorRate <= std::min(1.0, sum) + 1e-12, problem);
    if (steps > 0) EXPECT_MSG(sum > 0.0, problem);  // an untrained model misses some
  }

  // A model that answers "0" at every step is wrong at a recalled step exactly where that bit
  // is 1: the shares follow from the test sequences alone.
  const auto project = problemProject(scratch, "memorization_5bit", "{type: adam, lr: 0.01}");
  const engine::TrainingData data(project, [](const std::string&) {});
  engine::LanguageModel model(project.model, data.vocabulary().size());
  const engine::LongRangeProblem problem(engine::SyntheticTask::Memorization5,
                                         project.data.problem);
  const int64_t zero = problem.vocabulary().find("0");
  {
    torch::NoGradGuard noGrad;
    for (auto& item : model.named_parameters()) {
      if (item.key() == "output.W") item.value().zero_();
      if (item.key() == "output.b") item.value().zero_().index_put_({zero}, 50.0);
    }
  }
  const int64_t total = problem.sequences(engine::ProblemSplit::Test);
  std::vector<int64_t> ones(5, 0);
  int64_t anyOne = 0;
  for (int64_t i = 0; i < total; ++i) {
    const auto sequence = problem.sequence(engine::ProblemSplit::Test, i);
    bool any = false;
    for (size_t j = 0; j < sequence.judged.size(); ++j) {
      const bool one = sequence.targets[static_cast<size_t>(sequence.judged[j])] != zero;
      ones[j] += one ? 1 : 0;
      any = any || one;
    }
    anyOne += any ? 1 : 0;
  }
  engine::EvalOptions options;
  options.batch = 8;
  const auto figures = data.evaluate(engine::TrainingData::HeldOut::Test, model, options, nullptr);
  EXPECT_EQ(figures.answerErrorRates.size(), size_t{5});
  for (size_t j = 0; j < 5 && j < figures.answerErrorRates.size(); ++j) {
    EXPECT_NEAR(figures.answerErrorRates[j],
                static_cast<double>(ones[j]) / static_cast<double>(total), 1e-12);
  }
  EXPECT_NEAR(figures.errorRate, static_cast<double>(anyOne) / static_cast<double>(total), 1e-12);
}

// Which model a problem's run keeps turns on its error rate: a checkpoint carries the best
// model's, and a resumed run goes on choosing by it (before, it chose by bits until a new best,
// and could replace a solved model with an unsolved one of fewer bits).
MRNN_TEST(a_resumed_problem_run_keeps_choosing_its_best_by_errors) {
  ScratchProject scratch("problem-resume-best");
  auto project = problemProject(scratch, "temporal_order_2bit", "{type: adam, lr: 0.01}");
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  engine::RunStore store(engine::RunPaths::database(scratch.folder().string()));
  double fewest = 1.0;
  for (const auto& point : store.metrics(outcome.runId, engine::metric::kValidErrorRate))
    fewest = std::min(fewest, point.value);
  EXPECT_NEAR(engine::Checkpoint::open(outcome.latestCheckpoint).snapshot().bestErrorRate, fewest,
              0.0);
  // What a checkpoint keeps of the book, a resume gives back.
  engine::LocalCollective collective;
  auto parts = engine::buildTrainingParts(project, collective, [](const std::string&) {});
  engine::ValidationBook book(0, parts.vocabularySize());
  book.record(1.5, 0.30);
  book.record(1.4, 0.35);  // fewer bits, more wrong: not the best
  const engine::RunCounters counters{6, 600, 1.0};
  const std::string path = scratch.file("book.pt");
  engine::Checkpoint::save(path, engine::runSnapshot(project, parts, counters, book, 1, "p"),
                           *parts.model, parts.rule.get(), &parts.state);
  auto checkpoint = engine::Checkpoint::open(path);
  engine::ValidationBook resumed(0, parts.vocabularySize());
  engine::RunCounters at;
  engine::continueRun(checkpoint, project, parts, 0, 1, at, resumed, [](const std::string&) {});
  EXPECT_NEAR(resumed.bestErrorRate(), 0.30, 0.0);
  EXPECT_NEAR(resumed.best(), 1.5, 0.0);
  EXPECT(!resumed.record(1.3, 0.32).best);  // fewer bits again, still more wrong
  EXPECT(resumed.record(1.6, 0.25).best);
}

MRNN_TEST(the_addition_problem_trains_a_linear_output_on_real_targets) {
  ScratchProject scratch("addition-run");
  const auto project = problemProject(
      scratch, "addition",
      "{type: hessian_free, cg_max_iterations: 5, gradient_windows: 2, curvature_windows: 1}");
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);
  EXPECT(outcome.testErrorRate >= 0.0 && outcome.testErrorRate <= 1.0);
  // The loss is half the squared error of a sum of two numbers in [0, 1): small, finite.
  EXPECT(std::isfinite(outcome.bestValid) && outcome.bestValid > 0.0 && outcome.bestValid < 2.0);
}

MRNN_TEST(a_time_budget_ends_the_run_finished_and_tested) {
  ScratchProject scratch("time-budget");
  auto project = scratch.project();
  project.training.maxSteps = 1000000;
  project.training.maxSeconds = 0.5;
  const auto started = std::chrono::steady_clock::now();
  const auto outcome = trainToEnd(project);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_MSG(outcome.finished && !outcome.stopped, outcome.reason);
  EXPECT(outcome.end == engine::RunEnd::TimeBudget);
  EXPECT(outcome.steps > 0 && outcome.steps < 1000000);
  EXPECT(outcome.test > 0.0);  // tested, as a run that ran its length
  EXPECT_MSG(seconds < 30.0, seconds << " s");
  engine::RunStore store(engine::RunPaths::database(scratch.folder().string()));
  const auto loss = store.metrics(outcome.runId, engine::metric::kTrainLoss);
  EXPECT(loss.back().wallSeconds >= 0.5);
  EXPECT(loss[loss.size() - 2].wallSeconds < 0.5);  // the step that crossed it was the last
}

// A problem the first validation solves (random permutation at T = 2: say the first symbol
// at the next step): with training.stop_when_solved the run ends there, tested; without, it
// runs its length.
MRNN_TEST(a_solved_problem_ends_its_run_when_asked) {
  const auto run = [](bool stop) {
    ScratchProject scratch(stop ? "solved-stop" : "solved-on");
    auto project = engine::parseProject(
        std::string("name: solved\nmodel:\n  input: {level: word, embedding_size: 0}\n"
                    "  layers:\n    - {type: rnn, hidden_size: 12}\n"
                    "data:\n  synthetic: random_permutation\n"
                    "  problem: {length: 2, train: 64, valid: 300, test: 100, seed: 3}\n"
                    "training:\n  batch_size: 8\n  max_steps: 60\n  validate_every: 10\n"
                    "  threads: 1\n  stop_when_solved: ") +
            (stop ? "true" : "false") +
            "\n  optimizer: {type: adam, lr: 0.03}\nevaluation: {batch_size: 8}\n",
        scratch.file("project.yaml"));
    project.folder = scratch.folder().string();
    return trainToEnd(project);
  };
  const auto stopped = run(true);
  EXPECT_MSG(stopped.finished && !stopped.stopped, stopped.reason);
  EXPECT_EQ(stopped.steps, int64_t{10});
  EXPECT(stopped.end == engine::RunEnd::Solved);  // the banner and the terminal say so
  EXPECT_MSG(engine::problemSolved(stopped.testErrorRate, stopped.testSequences),
             stopped.testErrorRate);
  const auto whole = run(false);
  EXPECT_MSG(whole.finished, whole.reason);
  EXPECT_EQ(whole.steps, int64_t{60});
  EXPECT(whole.end == engine::RunEnd::Length);
}

// A Hessian-free run whose steps cannot move the weights (λ 10¹² makes each step about
// g/10¹², below a float's resolution of the weights): every step is rejected and λ rises by
// 3/2 a step. At the 40th the run ends, tested, and says why, rather than spend the
// rest of its steps standing still.
MRNN_TEST(a_run_whose_damping_runs_away_ends_and_says_so) {
  ScratchProject scratch("runaway-lambda");
  auto project = problemProject(
      scratch, "temporal_order_2bit",
      "{type: hessian_free, lambda: 1e12, cg_max_iterations: 3, gradient_windows: 1}");
  project.training.maxSteps = 200;
  project.training.validateEvery = 20;
  project.training.checkpointEvery = 0;
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished && !outcome.stopped, outcome.reason);
  EXPECT_EQ(outcome.steps, int64_t{engine::kRunawayRaises});
  EXPECT(outcome.end == engine::RunEnd::Stalled);
  EXPECT(outcome.testErrorRate >= 0.0);  // tested, as any finished run
  EXPECT(engine::runEndReason(outcome.end).find("rose at 40 of its last 50 steps") !=
         std::string::npos);
}

MRNN_TEST(a_window_that_starts_afresh_ignores_the_state_it_is_handed) {
  engine::ModelConfig config;
  config.input.embeddingSize = 4;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Lstm;
  layer.hiddenSize = 5;
  config.layers = {layer};
  engine::LanguageModel model(config, 6);
  torch::manual_seed(4);
  const auto inputs = torch::randint(0, 6, {7, 3}, torch::kLong);
  const auto targets = torch::randint(0, 6, {7, 3}, torch::kLong);
  engine::LocalCollective local;
  engine::ObjectiveOptions options;
  options.shard = {0, 3};
  const auto lossFrom = [&](const engine::ModelState& start, bool fresh) {
    engine::WindowObjective objective(model, local, start, {{inputs, targets, {}, fresh, {}, {}}},
                                      options);
    return objective.loss(engine::DataShare::Gradient);
  };
  engine::ModelState noisy = model.initialState(3);
  for (auto& part : noisy.layers[0].parts) part = torch::randn_like(part);
  const auto zero = model.initialState(3);
  EXPECT(lossFrom(noisy, false) != lossFrom(zero, false));  // the state matters...
  EXPECT_EQ(lossFrom(noisy, true), lossFrom(zero, false));  // ...unless the window starts afresh
}

MRNN_TEST(sampling_and_the_analyses_refuse_a_model_of_real_numbers) {
  ScratchProject scratch("addition-analysis");
  const auto project = problemProject(
      scratch, "addition",
      "{type: hessian_free, cg_max_iterations: 3, gradient_windows: 1, curvature_windows: 1}");
  auto shorter = project;
  shorter.training.maxSteps = 2;
  const auto outcome = trainToEnd(shorter);
  EXPECT_MSG(outcome.finished, outcome.reason);
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     engine::loadModelFromCheckpoint(outcome.latestCheckpoint, torch::kCPU),
                     "predicts real numbers", "linear");
}
