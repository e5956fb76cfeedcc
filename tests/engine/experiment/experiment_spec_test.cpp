// Experiment files and their plans: every key read, every problem located (file, line, key),
// grids, draws, seeds, `set`, and cells sized to a matched parameter count.
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>
#include <vector>

#include "engine/config/config_error.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_spec.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;
using test::ScratchFolder;

namespace {

constexpr const char* kBase = R"(name: base
model:
  input: {level: char, embedding_size: 16, vocab_size: 50}
  layers:
    - type: mlstm
      hidden_size: 64
      m_size: 64
training:
  max_steps: 100
  validate_every: 20
  optimizer: {type: adam, lr: 0.001}
data:
  train: corpus.txt
)";

// A project folder with the base project and one experiment file; returns the file's path.
std::string writeExperiment(const ScratchFolder& folder, const std::string& text) {
  folder.write("project.yaml", kBase);
  std::filesystem::create_directories(folder.file("experiments"));
  folder.write("experiments/e.yaml", text);
  return folder.file("experiments/e.yaml");
}

engine::ExperimentPlan plan(const ScratchFolder& folder, const std::string& text) {
  const std::string file = writeExperiment(folder, text);
  // The vocabulary is in the base project: no corpus is read.
  return engine::planExperiment(engine::loadExperiment(file));
}

}  // namespace

MRNN_TEST(an_experiment_file_reads_every_key) {
  const engine::Experiment e = engine::parseExperiment(R"(experiment:
  name: study
  description: words
  base: ../other.yaml
  set:
    training.max_steps: 50
  axes:
    - key: training.optimizer.lr
      log_range: [1.0e-4, 1.0e-2]
      count: 3
    - key: model.layers[0].type
      cells: [lstm, mlstm]
      match_parameters: 100000
  search: {kind: halving, rungs: [20, 40], keep: 0.25}
  seeds: [3, 4]
  slots: 2
  threads: 1
  references:
    - when:
        model.layers[0].type: mlstm
      metric: test_bpc
      value: 1.11
      source: Table 1
)",
                                                       "/p/experiments/x.yaml");
  EXPECT_EQ(e.name, std::string("study"));
  EXPECT_EQ(e.baseFile, std::string("/p/other.yaml"));
  EXPECT_EQ(e.set.size(), size_t{1});
  EXPECT_EQ(e.set[0].first, std::string("training.max_steps"));
  EXPECT_EQ(e.axes.size(), size_t{2});
  EXPECT(e.axes[0].kind == engine::AxisKind::LogRange);
  EXPECT_EQ(e.axes[0].label, std::string("lr"));
  EXPECT(e.axes[1].kind == engine::AxisKind::Cells);
  EXPECT_EQ(e.axes[1].layer, int64_t{0});
  EXPECT_EQ(e.axes[1].matchParameters, int64_t{100000});
  EXPECT(e.search.kind == engine::SearchKind::Halving);
  EXPECT_EQ(e.search.rungs.size(), size_t{2});
  EXPECT_NEAR(e.search.keep, 0.25, 0.0);
  EXPECT_EQ(e.seeds.size(), size_t{2});
  EXPECT_EQ(e.seeds[1], uint64_t{4});
  EXPECT_EQ(e.slotCount, int64_t{2});
  EXPECT_EQ(e.references.size(), size_t{1});
  EXPECT_EQ(e.references[0].when.at("model.layers[0].type"), std::string("mlstm"));
  EXPECT_NEAR(e.references[0].value, 1.11, 0.0);
}

MRNN_TEST(the_name_defaults_to_the_file_and_the_base_to_the_project_above) {
  const engine::Experiment e =
      engine::parseExperiment("experiment: {}\n", "/p/experiments/sweep.yaml");
  EXPECT_EQ(e.name, std::string("sweep"));
  EXPECT_EQ(e.baseFile, std::string("/p/project.yaml"));
  EXPECT_EQ(e.seeds.size(), size_t{1});
}

MRNN_TEST(every_problem_in_an_experiment_file_is_located) {
  const auto parse = [](const std::string& text) { engine::parseExperiment(text, "e.yaml"); };
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  axis: []\n"), "e.yaml:2:3",
                     "experiment.axis", "unknown key");
  EXPECT_THROWS_WITH(
      ConfigError,
      parse("experiment:\n  axes:\n    - key: model.layers[0].type\n      cells: [lstm, lsmt]\n"),
      "e.yaml:4:21", "experiment.axes[0].cells[1]", "not a cell type");
  EXPECT_THROWS_WITH(
      ConfigError,
      parse("experiment:\n  axes:\n    - key: training.optimizer.lr\n      range: [0.1, 0.2]\n"),
      "experiment.axes[0].count", "grid search takes count");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  axes:\n    - key: trainig.lr\n      values: [1]\n"),
                     "e.yaml:3:12", "not a key of a project file");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  search: {kind: halving}\n"),
                     "experiment.search.rungs", "at least two rungs");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  search: {kind: halving, rungs: [40, 20]}\n"),
                     "experiment.search.rungs[1]", "increasing");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  search: {kind: random}\n"),
                     "experiment.search.trials", "needs trials");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  seeds: [1, 1]\n"), "experiment.seeds[1]",
                     "repeats seed 1");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  axes:\n    - key: training.optimizer.lr\n      values: "
                           "[1]\n      range: [1, 2]\n"),
                     "exactly one of values, range");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  references:\n    - {metric: test_bpc, value: 1.1}\n"),
                     "experiment.references[0].source", "say where the figure comes from");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  name: a/b\n"), "experiment.name",
                     "names a folder");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment: [\n"), "YAML syntax error");
  // Whole numbers past 64 bits escaped as std::out_of_range (a crash the fuzzer found).
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  search:\n    kind: halving\n"
                           "    rungs: [100, 99999999999999999999999]\n"),
                     "experiment.search.rungs[1]", "too large");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  seeds: [1, 184467440737095516160]\n"),
                     "experiment.seeds[1]", "too large");
  // A key path's "[0]" inside a {...} mapping: the message says why and what to write.
  EXPECT_THROWS_WITH(
      ConfigError, parse("experiment:\n  references:\n    - when: {model.layers[0].type: lstm}\n"),
      "e.yaml:3:", "YAML syntax error", "cannot stand inside {...}", "one key per line");
  EXPECT_THROWS_WITH(ConfigError, engine::loadExperiment("/nonexistent/e.yaml"),
                     "/nonexistent/e.yaml");
}

MRNN_TEST(a_grid_runs_every_combination_first_axis_slowest_with_every_seed) {
  ScratchFolder folder;
  const auto p = plan(folder, R"(experiment:
  axes:
    - key: model.layers[0].hidden_size
      values: [32, 48]
    - key: training.optimizer.lr
      log_range: [1.0e-4, 1.0e-2]
      count: 3
  seeds: [7, 8]
)");
  EXPECT_EQ(p.configurations, int64_t{6});
  EXPECT_EQ(p.trials.size(), size_t{12});
  EXPECT_EQ(p.trials[0].settings[0].value, std::string("32"));
  EXPECT_EQ(p.trials[0].settings[1].value, std::string("0.0001"));
  EXPECT_EQ(p.trials[2].settings[1].value, std::string("0.001"));
  EXPECT_EQ(p.trials[4].settings[1].value, std::string("0.01"));
  EXPECT_EQ(p.trials[6].settings[0].value, std::string("48"));
  EXPECT_EQ(p.trials[1].seed, uint64_t{8});
  EXPECT_EQ(p.trials[1].configuration, int64_t{0});
  // Each trial's project carries its values and its seed, in training and initialisation.
  const engine::Project& last = p.trials[11].project;
  EXPECT_EQ(last.model.layers[0].hiddenSize, int64_t{48});
  EXPECT_NEAR(last.training.optimizer.learningRate, 0.01, 1e-12);
  EXPECT_EQ(last.training.seed, uint64_t{8});
  EXPECT_EQ(last.model.init.seed, uint64_t{8});
  EXPECT_EQ(last.folder, folder.path());
  // Parameter counts from the closed forms: embedding 50*16, mLSTM (I=16, H=M=48 would follow
  // H, but m_size is fixed at 64), softmax 48*50 + 50.
  EXPECT(p.trials[0].parameters > 0);
  EXPECT(p.trials[6].parameters > p.trials[0].parameters);
  std::set<std::string> fingerprints;
  for (const auto& trial : p.trials) fingerprints.insert(trial.fingerprint);
  EXPECT_EQ(fingerprints.size(), size_t{12});
}

MRNN_TEST(a_random_search_is_reproducible_and_stays_in_its_ranges) {
  ScratchFolder folder;
  const std::string text = R"(experiment:
  axes:
    - key: training.optimizer.lr
      log_range: [1.0e-4, 1.0e-2]
    - key: model.layers[0].hidden_size
      range: [16, 64]
    - key: model.dropout.state
      values: [0.0, 0.25]
  search: {kind: random, trials: 20, seed: 5}
)";
  const auto first = plan(folder, text);
  const auto again = plan(folder, text);
  EXPECT_EQ(first.trials.size(), size_t{20});
  std::set<std::string> distinct;
  for (size_t i = 0; i < first.trials.size(); ++i) {
    EXPECT_EQ(first.trials[i].label, again.trials[i].label);
    const double lr = first.trials[i].project.training.optimizer.learningRate;
    EXPECT(lr >= 1e-4 && lr <= 1e-2);
    const int64_t hidden = first.trials[i].project.model.layers[0].hiddenSize;
    EXPECT(hidden >= 16 && hidden <= 64);
    distinct.insert(first.trials[i].settings[0].value);
  }
  EXPECT(distinct.size() > 15);  // continuous draws, not a handful of grid points
}

MRNN_TEST(set_changes_every_trial_and_adds_keys_the_base_left_out) {
  ScratchFolder folder;
  const auto p = plan(folder, R"(experiment:
  set:
    training.max_steps: 30
    model.dropout.output: 0.1
)");
  EXPECT_EQ(p.trials.size(), size_t{1});
  EXPECT_EQ(p.trials[0].project.training.maxSteps, int64_t{30});
  EXPECT_NEAR(p.trials[0].project.model.dropout.output, 0.1, 1e-12);
  EXPECT_EQ(p.trials[0].label, std::string("base"));
}

MRNN_TEST(a_value_that_breaks_a_trial_is_reported_at_its_axis) {
  ScratchFolder folder;
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  axes:
    - key: model.layers[0].hidden_size
      values: [32, -4]
)"),
                     "e.yaml:3:7", "experiment.axes[0]", "trial #2", "hidden_size");
  // A cells axis answers for every key of its layer (a Mogrifier's rank against the width).
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  axes:
    - key: model.layers[0].type
      cells: [lstm, mogrifier]
)"),
                     "e.yaml:3:7", "trial #2 (type=mogrifier)", "rank 40 must be below",
                     "model.layers[0].rank");
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  axes:
    - key: model.layers[3].hidden_size
      values: [32]
)"),
                     "e.yaml:3:7", "has no item [3]");
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  set:
    training.optimizer.lr: fast
)"),
                     "e.yaml:3:5", "experiment.set.training.optimizer.lr");
}

MRNN_TEST(a_corpus_an_axis_names_that_cannot_be_read_is_reported_at_its_axis) {
  ScratchFolder folder;
  // No vocab_size: planning reads each trial's corpus for its vocabulary.
  std::string base = kBase;
  base.replace(base.find(", vocab_size: 50"), std::string(", vocab_size: 50").size(), "");
  folder.write("project.yaml", base);
  std::filesystem::create_directories(folder.file("experiments"));
  folder.write("experiments/e.yaml", R"(experiment:
  axes:
    - key: data.train
      values: [/dev/zero]
)");
  EXPECT_THROWS_WITH(
      ConfigError,
      engine::planExperiment(engine::loadExperiment(folder.file("experiments/e.yaml"))),
      "e.yaml:3:7", "experiment.axes[0]", "trial #1", "/dev/zero", "not a regular file");
}

MRNN_TEST(a_grid_past_the_cap_is_refused_at_its_axes_with_its_product) {
  const auto parse = [](const std::string& text) { engine::parseExperiment(text, "e.yaml"); };
  std::string axes = "experiment:\n  axes:\n";
  for (const char* key : {"training.optimizer.lr", "training.batch_size", "training.bptt"}) {
    axes += std::string("    - key: ") + key + "\n      range: [1, 100]\n      count: 100\n";
  }
  EXPECT_THROWS_WITH(ConfigError, parse(axes), "e.yaml:3:7", "experiment.axes",
                     "100 x 100 x 100 = 1000000 configurations, more than the 100000");
  // The same space sampled at random is an experiment of its own size.
  parse(axes + "  search: {kind: random, trials: 100000}\n  seeds: [1, 2, 3]\n");
  EXPECT_THROWS_WITH(ConfigError, parse(axes + "  search: {kind: random, trials: 100001}\n"),
                     "experiment.search.trials");
}

MRNN_TEST(planning_reports_its_progress_and_stops_when_asked) {
  ScratchFolder folder;
  const std::string file = writeExperiment(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002, 0.003, 0.004]
  seeds: [1, 2]
)");
  std::vector<engine::JobProgress> heard;
  engine::StopToken stop;
  engine::PlanWatch watch;
  watch.stop = &stop;
  watch.progress = [&](const engine::JobProgress& progress) {
    heard.push_back(progress);
    if (heard.size() == 3) stop.requestStop();
  };
  EXPECT_THROWS_WITH(
      engine::PlanStopped,
      engine::planExperiment(engine::loadExperiment(file), engine::projectVocabularySize, watch),
      "planning stopped after 3 of 8 trials");
  EXPECT_EQ(heard.size(), size_t{3});
  EXPECT_EQ(heard.back().phase, std::string("3 of 8 trials"));
  EXPECT_NEAR(heard.back().fraction, 3.0 / 8.0, 1e-12);
}

MRNN_TEST(cells_at_a_matched_parameter_count_are_within_one_percent) {
  ScratchFolder folder;
  // The Mogrifier's rank (40) must be below its input width.
  const auto p = plan(folder, R"(experiment:
  set:
    model.input.embedding_size: 64
  axes:
    - key: model.layers[0].type
      cells: [rnn, mrnn, lstm, gru, mlstm, tmlstm, mgru, tmgru, mogrifier, mmlstm]
      match_parameters: 200000
)");
  EXPECT_EQ(p.trials.size(), size_t{10});
  for (const auto& trial : p.trials) {
    EXPECT_MSG(std::abs(static_cast<double>(trial.parameters) - 200000.0) <= 2000.0,
               trial.label + ": " + std::to_string(trial.parameters) + " parameters");
    EXPECT(trial.settings[0].shown.find("(H ") != std::string::npos);
  }
  // The base's m_size does not apply to an LSTM: dropped, not an error.
  EXPECT_EQ(p.trials[2].project.model.layers[0].mSize, int64_t{0});
  EXPECT(p.trials[2].project.model.layers[0].type == engine::CellType::Lstm);
}

MRNN_TEST(a_matched_parameter_count_out_of_reach_is_refused_at_its_axis) {
  ScratchFolder folder;
  // Two 200-unit layers and the embedding hold far more than 100,000 parameters: no size of
  // layer 0 alone brings the model down to the target.
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  set:
    model.input.embedding_size: 64
    model.layers: [{type: lstm, hidden_size: 200}, {type: lstm, hidden_size: 200}]
  axes:
    - key: model.layers[0].type
      cells: [lstm, mlstm]
      match_parameters: 100000
)"),
                     "match_parameters 100,000 is out of reach for lstm by sizing layer 0 "
                     "alone: at hidden size 1 the model already has");
}

MRNN_TEST(an_axis_sets_its_value_on_every_key_it_names) {
  ScratchFolder folder;
  const auto p = plan(folder, R"(experiment:
  set:
    model.layers: [{type: mmlstm, hidden_size: 40}, {type: mmlstm, hidden_size: 40}]
  axes:
    - key: model.layers[0].major_share
      also:
        - model.layers[1].major_share
      values: [0.5, 0.75]
)");
  EXPECT_EQ(p.trials.size(), size_t{2});
  EXPECT_NEAR(p.trials[1].project.model.layers[0].majorShare, 0.75, 1e-12);
  EXPECT_NEAR(p.trials[1].project.model.layers[1].majorShare, 0.75, 1e-12);
  // A value one of the keys refuses is reported at the axis.
  EXPECT_THROWS_WITH(ConfigError, plan(folder, R"(experiment:
  axes:
    - key: training.optimizer.lr
      also: ["model.layers[0].hidden_size"]
      values: [0.5]
)"),
                     "e.yaml:3:7", "hidden_size");
}

MRNN_TEST(an_axis_names_its_values_for_the_tables) {
  // A whole optimiser as a value reads badly in a table column: the axis names it.
  ScratchFolder folder;
  const auto p = plan(folder, R"(experiment:
  axes:
    - key: training.optimizer
      values:
        - {type: adam, lr: 0.003}
        - {type: sgd, lr: 0.1}
      names: [Adam, SGD]
  claims:
    - better: {training.optimizer: {type: adam, lr: 0.003}}
      worse: {training.optimizer: {type: sgd, lr: 0.1}}
      metric: valid_bpc
      source: "a test"
)");
  EXPECT_EQ(p.trials.size(), size_t{2});
  EXPECT_EQ(p.trials[1].settings[0].shown, std::string("SGD"));
  EXPECT_EQ(p.trials[1].label, std::string("optimizer=SGD"));
  // The value itself goes into the project, and selectors still name it.
  EXPECT_EQ(p.trials[1].settings[0].value, std::string("{type: sgd, lr: 0.1}"));
  EXPECT_NEAR(p.trials[1].project.training.optimizer.learningRate, 0.1, 1e-12);
  const auto parse = [](const std::string& text) { engine::parseExperiment(text, "e.yaml"); };
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  axes:\n    - key: training.optimizer.lr\n"
                           "      values: [0.1, 0.2]\n      names: [low]\n"),
                     "e.yaml:5:14", "experiment.axes[0].names", "a list of 2 names");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  axes:\n    - key: training.optimizer.lr\n"
                           "      values: [0.1, 0.2]\n      names: [low, low]\n"),
                     "experiment.axes[0].names[1]", "names two values");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  axes:\n    - key: training.optimizer.lr\n"
                           "      range: [0.1, 0.2]\n      count: 2\n      names: [a, b]\n"),
                     "experiment.axes[0].names", "only a list of values or cells");
}
