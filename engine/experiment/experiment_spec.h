#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mrnn::engine {

// An experiment file (experiments/NAME.yaml, docs/experiments.md) as plain values. YAML
// values that are applied to the project (axis values, `set`) are kept as YAML text, so that
// a list or a mapping goes into a trial's project as it was written.

// Where a value stood in the experiment file, for errors about it.
struct SpecLocation {
  std::string key;  // "experiment.axes[1].values[2]"
  int line = 0;     // 1-based; 0 when unknown
  int column = 0;
};

enum class AxisKind {
  Values,    // a list of values
  Range,     // `count` evenly spaced values from..to (uniform draws for random search)
  LogRange,  // evenly spaced in log (log-uniform draws)
  Cells,     // cell types, each sized to `matchParameters` when that is > 0
};

struct ExperimentAxis {
  std::string key;  // a key path of the project file: "model.layers[0].type"
  // More keys that take the same value (a ratio on every layer at once).
  std::vector<std::string> also;
  AxisKind kind = AxisKind::Values;
  std::vector<std::string> values;  // Values and Cells: each value as YAML text
  // Values and Cells: what tables call each value ("Adam" for a whole optimiser's mapping);
  // empty: the value itself.
  std::vector<std::string> names;
  double from = 0.0;  // Range, LogRange
  double to = 0.0;
  int64_t count = 0;            // grid points of a range (required for a grid)
  bool integer = false;         // a range whose ends are both integers gives integers
  int64_t matchParameters = 0;  // Cells: the model's target size; 0 keeps hidden_size
  int64_t layer = -1;           // Cells: the layer sized (-1: the one the key names)
  std::string label;            // short name for tables: the key's last part
  SpecLocation at;
};

enum class SearchKind { Grid, Random, Halving };
std::string searchKindName(SearchKind kind);

struct SearchConfig {
  SearchKind kind = SearchKind::Grid;
  int64_t trials = 0;          // random, halving: configurations drawn (halving, 0: the whole grid)
  uint64_t seed = 1;           // the draws
  std::vector<int64_t> rungs;  // halving: the steps at which trials are ranked
  double keep = 0.5;           // halving: share kept at each rung
};

// A published figure to show beside the measured one.
struct ExperimentReference {
  std::map<std::string, std::string> when;  // key path -> value (YAML text); empty: all
  std::string metric;                       // valid_bpc, test_bpc, valid_perplexity, ...
  double value = 0.0;
  std::string source;  // "Maupomé & Meurs, Table 1"
};

// A paper's ordering to test on the measured figures: the configuration `better` selects
// reaches a lower `metric` than the one `worse` selects (every metric here is a loss).
struct ExperimentClaim {
  std::map<std::string, std::string> better;  // key path -> value (YAML text)
  std::map<std::string, std::string> worse;
  std::string metric;
  std::string source;     // "Krause et al., Table 2: 1.59 against 1.64"
  SpecLocation betterAt;  // each side in the file, for messages
  SpecLocation worseAt;
};

// Where the trials run: child processes of the queue on this machine, or a Slurm job array
// (docs/distributed.md). Each kind is a TrialExecutor (trial_executors.h makes them).
enum class ExecutorKind { Local, Slurm };
// Every kind, as `executor:` and `--executor` list them.
const std::vector<ExecutorKind>& executorKinds();
std::string executorKindName(ExecutorKind kind);  // "local", "slurm"
// The kind of that name, or nothing.
std::optional<ExecutorKind> executorKindNamed(const std::string& name);

// The `slurm:` section: how the Slurm executor submits the trials. Empty texts leave the
// cluster's defaults.
struct SlurmSettings {
  std::string partition;    // sbatch --partition
  std::string time;         // --time, in Slurm's format ("30", "2:00:00", "1-12:00:00")
  std::string account;      // --account
  int64_t cpusPerTask = 0;  // --cpus-per-task; 0: the trial's threads
  // More sbatch options, one argument each ("--gres=gpu:1", "--mem=4G"); never those the
  // executor sets itself (--array, --output, --job-name, ...).
  std::vector<std::string> sbatchArgs;
  // Shell lines the job runs before the trial ("module load ...").
  std::vector<std::string> setup;
  int64_t pollSeconds = 10;  // how often the queue asks squeue about its jobs
};

// The most configurations an experiment may have: a grid's product of its axes' points, or a
// random search's `trials`. Seeds multiply them (each configuration trains once per seed).
constexpr int64_t kMaxConfigurations = 100000;

// The metrics an experiment reports (and references and claims may name); test_error_rate is
// a long-range problem's share of test sequences wrong.
const std::vector<std::string>& experimentMetricNames();

struct Experiment {
  std::string name;
  std::string description;
  std::string file;      // the experiment file
  std::string baseFile;  // the project it varies (resolved against the experiment's folder)
  std::vector<std::pair<std::string, std::string>> set;  // key path -> YAML text
  std::vector<SpecLocation> setAt;
  std::vector<ExperimentAxis> axes;
  SearchConfig search;
  std::vector<uint64_t> seeds{1};
  int64_t slotCount = 0;  // YAML `slots`; 0: chosen from the machine
  int64_t threads = 0;    // per trial; 0: cores / slots
  std::vector<ExperimentReference> references;
  std::vector<ExperimentClaim> claims;
  ExecutorKind executor = ExecutorKind::Local;  // `executor:`; `--executor` overrides it
  SlurmSettings slurm;
};

// Throws ConfigError naming the file, line, column and key of every problem (unknown keys,
// wrong types, an empty axis, halving rungs out of order, ...). The base project itself is
// read by planExperiment.
Experiment parseExperiment(const std::string& text, const std::string& file);
Experiment loadExperiment(const std::string& path);

}  // namespace mrnn::engine
