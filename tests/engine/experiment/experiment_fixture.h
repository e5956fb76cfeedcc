#pragma once

// What the experiment tests that train nothing share: a small base project with experiments
// planned beside it in a scratch folder, and runs put in its store as a trial's child leaves
// them.

#include <filesystem>
#include <optional>
#include <string>

#include "engine/experiment/experiment_plan.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_store.h"
#include "store_fixtures.h"

namespace mrnn::test {

inline constexpr const char* kExperimentBase = R"(name: base
model:
  input: {level: char, embedding_size: 8, vocab_size: 30}
  layers:
    - {type: lstm, hidden_size: 16}
training:
  max_steps: 40
  validate_every: 10
  optimizer: {type: adam, lr: 0.001}
data:
  train: corpus.txt
)";

// The experiment written as experiments/e.yaml beside `base` (kExperimentBase unless a test
// needs more of the project), planned.
inline engine::ExperimentPlan planIn(const ScratchFolder& folder, const std::string& experiment,
                                     const std::string& base = kExperimentBase) {
  folder.write("project.yaml", base);
  std::filesystem::create_directories(folder.file("experiments"));
  folder.write("experiments/e.yaml", experiment);
  return engine::planExperiment(engine::loadExperiment(folder.file("experiments/e.yaml")));
}

// A run in the store with a best validation figure, as a trial's child leaves it.
inline int64_t addRun(engine::RunCatalogue& catalogue, engine::RunStatus status, double bestValid,
                      int64_t steps, std::optional<double> test = std::nullopt) {
  engine::RunRecord record;
  record.name = "trial";
  const int64_t id = catalogue.store().createRun(record);
  catalogue.store().setBestValid(id, bestValid);
  if (test) catalogue.store().setTestResult(id, *test);
  catalogue.store().updateProgress(id, steps, 1.0);
  catalogue.store().setStatus(id, status);
  return id;
}

}  // namespace mrnn::test
