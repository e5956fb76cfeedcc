#include "engine/bench/long_range_race.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "engine/config/project_file.h"
#include "engine/runtime/stop_token.h"
#include "engine/store/metric_names.h"
#include "engine/training/problem_score.h"
#include "engine/training/run_end.h"
#include "engine/training/trainer.h"

namespace mrnn::engine {
namespace {

RaceResult train(const Project& project) {
  RaceResult result;
  const Trainer::Publish publish = [&result](TrainingEvent event) {
    if (const auto* step = std::get_if<StepEvent>(&event)) {
      result.steps = step->step;
      result.seconds = step->wallSeconds;
      for (const auto& figure : step->update) {
        if (figure.name == metric::kCgIterations) {
          result.cgIterations += static_cast<int64_t>(figure.value);
        }
      }
    }
  };
  Trainer trainer(project, publish);
  const TrainingOutcome outcome = trainer.run(StopToken::never());
  if (outcome.failed) {
    result.failure = outcome.reason;
    return result;
  }
  result.testErrorRate = outcome.testErrorRate;
  result.solved = problemSolved(outcome.testErrorRate, outcome.testSequences);
  result.stalled = outcome.end == RunEnd::Stalled;
  return result;
}

// Validations every few seconds of training: Hessian-free's steps take a second or more,
// Adam's a few milliseconds at these sizes.
int64_t validationEvery(const RaceOptions& o, bool hessianFree) {
  if (hessianFree) return o.budgetSeconds > 0 ? 5 : std::max<int64_t>(1, o.hessianFreeSteps);
  return 200;
}

}  // namespace

double raceMinLambda(SyntheticTask problem) {
  return problemIsRealValued(problem) ? 0.0 : 0.05;
}

double raceRecurrentScale(SyntheticTask problem) {
  return problem == SyntheticTask::RandomPermutation ? 1.2 : 1.0;
}

std::string raceProjectYaml(const RaceOptions& o, bool hessianFree) {
  const bool realTarget = problemIsRealValued(o.problem);
  const bool readsValues = problemReadsValues(o.problem);
  const double floor = o.minLambda.value_or(raceMinLambda(o.problem));
  std::ostringstream y;
  y << "name: " << syntheticTaskName(o.problem) << " T=" << o.length << ", "
    << (hessianFree ? "Hessian-free" : "Adam") << "\n"
    << "model:\n"
    << "  input: {level: word, embedding_size: 0" << (readsValues ? ", values: 1" : "") << "}\n"
    << "  layers:\n    - {type: rnn, hidden_size: " << o.hidden << "}\n"
    << "  output: {type: " << (realTarget ? "linear" : "softmax") << "}\n"
    << "  init: {seed: " << o.seed
    << ", recurrent: sparse, sparse_connections: 15, recurrent_scale: "
    << o.recurrentScale.value_or(raceRecurrentScale(o.problem)) << "}\n"
    << "data:\n  synthetic: " << syntheticTaskName(o.problem) << "\n"
    << "  problem: {length: " << o.length
    << ", train: 1000000, valid: 500, test: 1000, seed: " << o.seed << "}\n"
    << "training:\n  batch_size: " << o.batch << "\n  seed: " << o.seed
    << "\n  threads: " << o.threads << "\n";
  y << "  stop_when_solved: true\n  validate_every: " << validationEvery(o, hessianFree)
    << "\n  checkpoint_every: 100000000\n";
  if (o.budgetSeconds > 0) y << "  max_seconds: " << o.budgetSeconds << "\n";
  if (hessianFree) {
    y << "  max_steps: " << (o.hessianFreeSteps > 0 ? o.hessianFreeSteps : 100000000) << "\n"
      << "  optimizer: {type: hessian_free, lambda: 1, structural_damping: 0.03,"
      << " cg_max_iterations: " << o.cgMaxIterations << ", gradient_windows: " << o.gradientWindows
      << ", curvature_windows: " << o.curvatureWindows << ", preconditioner: none"
      << (floor > 0 ? ", min_lambda: " + std::to_string(floor) : std::string()) << "}\n";
  } else {
    y << "  max_steps: 100000000\n  clip_norm: 1.0\n  optimizer: {type: adam, lr: " << o.adamRate
      << "}\n";
  }
  y << "evaluation: {batch_size: " << o.batch << "}\n";
  return y.str();
}

void checkRace(const RaceOptions& options) {
  parseProject(raceProjectYaml(options, true), "race.yaml");
  parseProject(raceProjectYaml(options, false), "race.yaml");
}

LongRange raceOnProblem(const RaceOptions& options, const std::string& folder) {
  if (options.hessianFreeSteps <= 0 && options.budgetSeconds <= 0) {
    throw std::runtime_error("a race needs Hessian-free steps or a time budget");
  }
  std::filesystem::create_directories(folder);
  const auto project = [&](bool hessianFree) {
    Project p = parseProject(raceProjectYaml(options, hessianFree), folder + "/race.yaml");
    p.folder = folder;
    return p;
  };
  LongRange race;
  race.hessianFree = train(project(true));
  if (!race.hessianFree.failure.empty()) {
    throw std::runtime_error("Hessian-free could not train: " + race.hessianFree.failure);
  }
  if (!options.raceAdam) return race;
  Project adam = project(false);
  // Without a budget Adam gets Hessian-free's time, however that run ended.
  if (options.budgetSeconds <= 0) adam.training.maxSeconds = race.hessianFree.seconds;
  race.adam = train(adam);
  if (!race.adam.failure.empty())
    throw std::runtime_error("Adam could not train: " + race.adam.failure);
  return race;
}

}  // namespace mrnn::engine
