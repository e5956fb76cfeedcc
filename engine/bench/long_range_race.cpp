#include "engine/bench/long_range_race.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "engine/config/project_file.h"
#include "engine/runtime/stop_token.h"
#include "engine/store/metric_names.h"
#include "engine/store/text_format.h"
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

RaceRecipe raceRecipe(SyntheticTask problem) {
  RaceRecipe recipe;
  if (problemIsRealValued(problem)) recipe.minLambda = 0.0;
  if (problem == SyntheticTask::RandomPermutation) recipe.recurrentScale = 1.2;
  if (problem == SyntheticTask::Memorization5) {
    recipe.recurrentScale = 1.2;
    recipe.hidden = 100;
    recipe.batch = 32;
    recipe.gradientWindows = 1;
    recipe.curvatureWindows = 1;
    recipe.cgMaxIterations = 300;
  }
  if (problem == SyntheticTask::Memorization20) {
    recipe.orthogonal = true;
    recipe.recurrentScale = 1.1;
    recipe.inputScale = 0.3;
    recipe.hidden = 200;
    recipe.gradientWindows = 10;
    recipe.curvatureWindows = 3;
    recipe.cgMaxIterations = 300;
    recipe.minLambda = 0.005;
  }
  return recipe;
}

RaceRecipe raceSettings(const RaceOptions& o) {
  RaceRecipe settings = raceRecipe(o.problem);
  settings.hidden = o.hidden.value_or(settings.hidden);
  settings.orthogonal = o.orthogonal.value_or(settings.orthogonal);
  settings.recurrentScale = o.recurrentScale.value_or(settings.recurrentScale);
  settings.inputScale = o.inputScale.value_or(settings.inputScale);
  settings.batch = o.batch.value_or(settings.batch);
  settings.gradientWindows = o.gradientWindows.value_or(settings.gradientWindows);
  settings.curvatureWindows = o.curvatureWindows.value_or(settings.curvatureWindows);
  settings.cgMaxIterations = o.cgMaxIterations.value_or(settings.cgMaxIterations);
  settings.minLambda = o.minLambda.value_or(settings.minLambda);
  settings.structuralDamping = o.structuralDamping.value_or(settings.structuralDamping);
  return settings;
}

std::string raceSettingsText(const RaceRecipe& r) {
  std::ostringstream out;
  // A scale reads with at least one decimal ("1.0"), and exactly (1.05 stays 1.05).
  std::string scale = formatDouble(r.recurrentScale);
  if (scale.find_first_of(".e") == std::string::npos) scale += ".0";
  out << r.hidden << " units from " << (r.orthogonal ? "orthogonal weights of scale " : "radius ")
      << scale;
  if (r.inputScale != 1.0) out << ", inputs scaled by " << formatDouble(r.inputScale);
  out << "; windows of " << r.batch << ": " << r.gradientWindows << " for the gradient, "
      << r.curvatureWindows << " for the curvature; CG up to " << r.cgMaxIterations << "; ";
  // Shortest exact text: the radius's one decimal must not round a floor of 0.0025 to 0.003.
  out << (r.minLambda > 0 ? "λ at least " + formatDouble(r.minLambda) : "λ not floored");
  out << "; μ " << formatDouble(r.structuralDamping);
  return out.str();
}

std::string raceProjectYaml(const RaceOptions& o, bool hessianFree) {
  const bool realTarget = problemIsRealValued(o.problem);
  const bool readsValues = problemReadsValues(o.problem);
  const RaceRecipe r = raceSettings(o);
  std::ostringstream y;
  y << "name: " << syntheticTaskName(o.problem) << " T=" << o.length << ", "
    << (hessianFree ? "Hessian-free" : "Adam") << "\n"
    << "model:\n"
    << "  input: {level: word, embedding_size: 0" << (readsValues ? ", values: 1" : "") << "}\n"
    << "  layers:\n    - {type: rnn, hidden_size: " << r.hidden << "}\n"
    << "  output: {type: " << (realTarget ? "linear" : "softmax") << "}\n"
    << "  init: {seed: " << o.seed
    << (r.orthogonal ? ", recurrent: orthogonal" : ", recurrent: sparse, sparse_connections: 15")
    << ", recurrent_scale: " << r.recurrentScale
    << (r.inputScale != 1.0 ? ", input_scale: " + formatDouble(r.inputScale) : std::string())
    << "}\n"
    << "data:\n  synthetic: " << syntheticTaskName(o.problem) << "\n"
    << "  problem: {length: " << o.length
    << ", train: 1000000, valid: 500, test: 1000, seed: " << o.seed << "}\n"
    << "training:\n  batch_size: " << r.batch << "\n  seed: " << o.seed
    << "\n  threads: " << o.threads << "\n";
  y << "  stop_when_solved: true\n  validate_every: " << validationEvery(o, hessianFree)
    << "\n  checkpoint_every: 100000000\n";
  if (o.budgetSeconds > 0) y << "  max_seconds: " << o.budgetSeconds << "\n";
  if (hessianFree) {
    y << "  max_steps: " << (o.hessianFreeSteps > 0 ? o.hessianFreeSteps : 100000000) << "\n"
      << "  optimizer: {type: hessian_free, lambda: 1, structural_damping: "
      << formatDouble(r.structuralDamping) << ","
      << " cg_max_iterations: " << r.cgMaxIterations << ", gradient_windows: " << r.gradientWindows
      << ", curvature_windows: " << r.curvatureWindows << ", preconditioner: none"
      << (r.minLambda > 0 ? ", min_lambda: " + formatDouble(r.minLambda) : std::string()) << "}\n";
  } else {
    y << "  max_steps: 100000000\n  clip_norm: 1.0\n  optimizer: {type: adam, lr: " << o.adamRate
      << "}\n";
  }
  y << "evaluation: {batch_size: " << r.batch << "}\n";
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
