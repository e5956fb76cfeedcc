#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/config/project_file.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/runtime/progress_sink.h"
#include "engine/runtime/stop_token.h"

namespace mrnn::engine {

// One axis's value in a trial, as tables show it.
struct AxisSetting {
  std::string key;    // the axis's key path
  std::string label;  // the axis's short name ("lr", "type")
  std::string value;  // as written into the project ("0.003", "mlstm")
  std::string shown;  // for tables: the value, and for a matched cell its size ("mlstm (H 171)")
};

// One trial: a configuration (a point of the search) with one seed.
struct TrialPlan {
  int64_t index = 0;          // 0-based, the queue's order
  int64_t configuration = 0;  // trials with the same configuration differ by seed only
  uint64_t seed = 1;
  std::vector<AxisSetting> settings;
  std::string label;        // "type=mlstm (H 171), lr=0.003"
  Project project;          // the project this trial trains (its name names the trial)
  std::string config;       // projectToYaml(project): what the queue compares across restarts
  std::string fingerprint;  // a hash of `config`
  int64_t parameters = 0;
  int64_t vocabulary = 0;
};

struct ExperimentPlan {
  Experiment experiment;
  Project base;
  std::vector<TrialPlan> trials;
  int64_t configurations = 0;
  // The project folder: its run store holds the trials' runs and the queue.
  const std::string& folder() const { return base.folder; }
};

// How large a project's vocabulary is (the corpus is read when the config does not say).
using VocabularySize = std::function<int64_t(const Project&)>;
// The default: model.input.vocab_size, 256 for bytes, the synthetic task's, else the corpus's.
int64_t projectVocabularySize(const Project& project);

// Planning costs a few milliseconds a trial: a caller hears how far it came, and may stop it.
struct PlanWatch {
  ProgressSink progress;            // after each trial: "N of M trials"
  const StopToken* stop = nullptr;  // once stopped, planning throws PlanStopped
};
class PlanStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every trial of the experiment, each project checked as a project file is: a value that makes
// a trial invalid throws ConfigError at the axis (or `set` key) in the experiment file, with
// the project's own message. Deterministic: the queue's children plan again and find their
// trial by index.
ExperimentPlan planExperiment(const Experiment& experiment,
                              const VocabularySize& vocabulary = projectVocabularySize,
                              const PlanWatch& watch = {});

// An axis's points on a grid, as YAML text: its values, or `count` points of its range.
std::vector<std::string> axisGridValues(const ExperimentAxis& axis);
// What tables and plots call one of the axis's values: its name where the axis names its values
// (`names:`), else the value on one line.
std::string axisValueName(const ExperimentAxis& axis, const std::string& value);

}  // namespace mrnn::engine
