#include "engine/experiment/experiment_plan.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include "engine/config/cell_type.h"
#include "engine/config/config_error.h"
#include "engine/config/model_config_parser.h"
#include "engine/config/parameter_count.h"
#include "engine/config/parameter_matching.h"
#include "engine/data/corpus.h"
#include "engine/experiment/claim_results.h"
#include "engine/experiment/yaml_path.h"
#include "engine/io/atomic_file.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string numberText(double value, bool integer) {
  if (integer) return std::to_string(static_cast<int64_t>(std::llround(value)));
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string scalarShown(const std::string& yaml) {
  // A scalar's YAML text is the value; a list or mapping is shown on one line.
  std::string shown;
  for (const char c : yaml) shown += c == '\n' ? ' ' : c;
  while (!shown.empty() && shown.back() == ' ') shown.pop_back();
  return shown;
}

// FNV-1a, 64 bits, as hex: enough to tell whether a trial's configuration changed.
std::string fingerprintOf(const std::string& text) {
  uint64_t hash = 1469598103934665603ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

double uniform01(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * (1.0 / 9007199254740992.0);
}

// A drawn value of an axis (random search).
std::string drawValue(const ExperimentAxis& axis, std::mt19937_64& random) {
  switch (axis.kind) {
    case AxisKind::Values:
    case AxisKind::Cells:
      return axis.values[random() % axis.values.size()];
    case AxisKind::Range: {
      if (axis.integer) {
        const auto low = static_cast<int64_t>(axis.from);
        const auto span = static_cast<uint64_t>(static_cast<int64_t>(axis.to) - low + 1);
        return std::to_string(low + static_cast<int64_t>(random() % span));
      }
      return numberText(axis.from + uniform01(random) * (axis.to - axis.from), false);
    }
    case AxisKind::LogRange: {
      const double logValue =
          std::log(axis.from) + uniform01(random) * (std::log(axis.to) - std::log(axis.from));
      return numberText(std::exp(logValue), axis.integer);
    }
  }
  return axis.values.front();
}

[[noreturn]] void failAt(const Experiment& experiment, const SpecLocation& at,
                         const std::string& message) {
  throw ConfigError(experiment.file, at.line, at.column, at.key, message);
}

// Rethrows a trial's project error at what in the experiment file caused it: the axis or
// `set` entry whose key the error names (or contains), else the experiment as a whole.
[[noreturn]] void blame(const Experiment& experiment, const ConfigError& error,
                        const std::string& trialLabel) {
  const auto covers = [&error](const std::string& key) {
    return !error.key().empty() &&
           (error.key() == key || error.key().rfind(key + ".", 0) == 0 ||
            error.key().rfind(key + "[", 0) == 0 || key.rfind(error.key(), 0) == 0);
  };
  std::string message = "trial " + trialLabel + ": " + error.message();
  if (!error.key().empty()) message += " (" + error.key() + ")";
  for (const ExperimentAxis& axis : experiment.axes) {
    // A cells axis changes the whole layer: any of its keys may object to the new type.
    const std::string layer = "model.layers[" + std::to_string(axis.layer) + "]";
    bool alsoCovered = false;
    for (const std::string& key : axis.also) alsoCovered = alsoCovered || covers(key);
    if (covers(axis.key) || alsoCovered || (axis.kind == AxisKind::Cells && covers(layer))) {
      failAt(experiment, axis.at, message);
    }
  }
  for (size_t i = 0; i < experiment.set.size(); ++i) {
    if (covers(experiment.set[i].first)) failAt(experiment, experiment.setAt[i], message);
  }
  if (error.line() > 0 && error.file() == experiment.baseFile) throw error;
  throw ConfigError(experiment.file, 0, 0, "experiment", message);
}

struct Configuration {
  std::vector<std::string> values;  // one YAML text per axis
};

std::vector<Configuration> gridConfigurations(const Experiment& experiment) {
  std::vector<Configuration> configurations{Configuration{}};
  for (const ExperimentAxis& axis : experiment.axes) {
    std::vector<Configuration> next;
    for (const Configuration& partial : configurations) {
      for (const std::string& value : axisGridValues(axis)) {
        Configuration extended = partial;
        extended.values.push_back(value);
        next.push_back(std::move(extended));
      }
    }
    configurations = std::move(next);
  }
  return configurations;
}

std::vector<Configuration> drawnConfigurations(const Experiment& experiment) {
  std::mt19937_64 random(experiment.search.seed);
  std::vector<Configuration> configurations;
  for (int64_t i = 0; i < experiment.search.trials; ++i) {
    Configuration configuration;
    for (const ExperimentAxis& axis : experiment.axes) {
      configuration.values.push_back(drawValue(axis, random));
    }
    configurations.push_back(std::move(configuration));
  }
  return configurations;
}

// A cells axis with match_parameters sizes its layer's hidden size to the target count.
void matchCellSizes(const Experiment& experiment, TrialPlan& trial) {
  for (size_t a = 0; a < experiment.axes.size(); ++a) {
    const ExperimentAxis& axis = experiment.axes[a];
    if (axis.kind != AxisKind::Cells || axis.matchParameters <= 0) continue;
    if (static_cast<size_t>(axis.layer) >= trial.project.model.layers.size()) {
      failAt(experiment, axis.at,
             "layer " + std::to_string(axis.layer) + " does not exist; the model has " +
                 std::to_string(trial.project.model.layers.size()) + " layers");
    }
    if (trial.vocabulary <= 0) {
      failAt(experiment, axis.at,
             "matching parameters needs the vocabulary size: give the project data or "
             "model.input.vocab_size");
    }
    const ParameterMatch match =
        matchParameters(trial.project.model, static_cast<size_t>(axis.layer),
                        SizedSetting::HiddenSize, trial.vocabulary, axis.matchParameters);
    if (!match.reachable) {
      const bool tooLarge = match.size == 1;
      failAt(experiment, axis.at,
             "match_parameters " + groupedInteger(axis.matchParameters) + " is out of reach for " +
                 trial.settings[a].shown + " by sizing layer " + std::to_string(axis.layer) +
                 " alone: " +
                 (tooLarge ? "at hidden size 1 the model already has "
                           : "even at the largest hidden size the model has only ") +
                 groupedInteger(match.total) +
                 (tooLarge ? " parameters in its other layers, embedding and head; lower their "
                             "sizes or raise the target"
                           : " parameters; lower the target"));
    }
    trial.project.model.layers[static_cast<size_t>(axis.layer)].hiddenSize = match.size;
    trial.settings[a].shown += " (H " + std::to_string(match.size) + ")";
  }
}

}  // namespace

std::vector<std::string> axisGridValues(const ExperimentAxis& axis) {
  if (axis.kind == AxisKind::Values || axis.kind == AxisKind::Cells) return axis.values;
  std::vector<std::string> values;
  for (int64_t i = 0; i < axis.count; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(axis.count - 1);
    const double value =
        axis.kind == AxisKind::Range
            ? axis.from + t * (axis.to - axis.from)
            : std::exp(std::log(axis.from) + t * (std::log(axis.to) - std::log(axis.from)));
    values.push_back(numberText(value, axis.integer));
  }
  return values;
}

int64_t projectVocabularySize(const Project& project) {
  if (project.model.input.vocabSize > 0) return project.model.input.vocabSize;
  if (project.model.input.level == InputLevel::Byte) return 256;
  if (!project.hasData) return 0;
  if (const int64_t generated = generatedVocabularySize(project.data); generated > 0) {
    return generated;
  }
  return loadCorpus(project.data, project.model.input.level, project.folder).vocabulary.size();
}

ExperimentPlan planExperiment(const Experiment& experiment, const VocabularySize& vocabulary,
                              const PlanWatch& watch) {
  ExperimentPlan plan;
  plan.experiment = experiment;
  plan.base = loadProject(experiment.baseFile);
  // Parsed once: each trial starts from a copy.
  const YAML::Node baseRoot = YAML::Load(readWholeFile(experiment.baseFile));
  std::vector<YAML::Node> setValues;
  for (const auto& [key, value] : experiment.set) setValues.push_back(YAML::Load(value));
  const bool drawn =
      experiment.search.kind == SearchKind::Random ||
      (experiment.search.kind == SearchKind::Halving && experiment.search.trials > 0);
  const std::vector<Configuration> configurations =
      drawn ? drawnConfigurations(experiment) : gridConfigurations(experiment);
  plan.configurations = static_cast<int64_t>(configurations.size());
  // Reading a corpus for its vocabulary is the slow part: once per distinct data section.
  std::map<std::string, int64_t> vocabularies;
  const int64_t total = plan.configurations * static_cast<int64_t>(experiment.seeds.size());

  for (size_t c = 0; c < configurations.size(); ++c) {
    for (const uint64_t seed : experiment.seeds) {
      TrialPlan trial;
      trial.index = static_cast<int64_t>(plan.trials.size());
      trial.configuration = static_cast<int64_t>(c);
      trial.seed = seed;
      std::string label;
      if (watch.stop != nullptr && watch.stop->stopRequested()) {
        throw PlanStopped("planning stopped after " + std::to_string(trial.index) + " of " +
                          std::to_string(total) + " trials");
      }
      YAML::Node root = YAML::Clone(baseRoot);
      for (size_t i = 0; i < experiment.set.size(); ++i) {
        try {
          setYamlPath(root, experiment.set[i].first, YAML::Clone(setValues[i]));
        } catch (const YamlPathError& error) {
          failAt(experiment, experiment.setAt[i], error.what());
        }
      }
      for (size_t a = 0; a < experiment.axes.size(); ++a) {
        const ExperimentAxis& axis = experiment.axes[a];
        const std::string& value = configurations[c].values[a];
        try {
          setYamlPath(root, axis.key, YAML::Load(value));
          for (const std::string& key : axis.also) setYamlPath(root, key, YAML::Load(value));
          if (axis.kind == AxisKind::Cells) {
            dropKeysNotTakenBy(root, axis.layer, *cellTypeFromName(scalarShown(value)));
          }
        } catch (const YamlPathError& error) {
          failAt(experiment, axis.at, error.what());
        }
        trial.settings.push_back(
            {axis.key, axis.label, scalarShown(value), axisValueName(axis, value)});
      }
      setYamlPath(root, "training.seed", YAML::Node(seed));
      setYamlPath(root, "model.init.seed", YAML::Node(seed));
      for (const AxisSetting& setting : trial.settings) {
        label += (label.empty() ? "" : ", ") + setting.label + "=" + setting.value;
      }
      const std::string shownLabel =
          "#" + std::to_string(trial.index + 1) + (label.empty() ? "" : " (" + label + ")");
      try {
        trial.project = parseProject(YAML::Dump(root), experiment.baseFile);
      } catch (const ConfigError& error) {
        blame(experiment, error, shownLabel);
      }
      trial.project.folder = plan.base.folder;
      const std::string dataKey = YAML::Dump(root["data"]) + "|" +
                                  inputLevelName(trial.project.model.input.level) + "|" +
                                  std::to_string(trial.project.model.input.vocabSize);
      auto known = vocabularies.find(dataKey);
      if (known == vocabularies.end()) {
        int64_t size = 0;
        try {
          size = vocabulary(trial.project);
        } catch (const ConfigError& error) {
          blame(experiment, error, shownLabel);
        } catch (const std::exception& error) {
          // A corpus that cannot be read (missing, /dev/zero): at the axis that named it.
          blame(experiment, ConfigError(experiment.baseFile, 0, 0, "data", error.what()),
                shownLabel);
        }
        known = vocabularies.emplace(dataKey, size).first;
      }
      trial.vocabulary = known->second;
      matchCellSizes(experiment, trial);
      label.clear();
      for (const AxisSetting& setting : trial.settings) {
        label += (label.empty() ? "" : ", ") + setting.label + "=" + setting.shown;
      }
      trial.label = label.empty() ? "base" : label;
      trial.project.name = experiment.name + " #" + std::to_string(trial.index + 1) +
                           (label.empty() ? "" : ": " + label) +
                           (experiment.seeds.size() > 1 ? ", seed " + std::to_string(seed) : "");
      trial.project.runName = trial.project.name;
      trial.parameters = trial.vocabulary > 0
                             ? summarizeModel(trial.project.model, trial.vocabulary).totalParameters
                             : 0;
      trial.config = projectToYaml(trial.project);
      trial.fingerprint = fingerprintOf(trial.config);
      plan.trials.push_back(std::move(trial));
      if (watch.progress) {
        const auto planned = static_cast<int64_t>(plan.trials.size());
        watch.progress({static_cast<double>(planned) / static_cast<double>(total),
                        std::to_string(planned) + " of " + std::to_string(total) + " trials"});
      }
    }
  }
  checkClaims(plan);
  return plan;
}

std::string axisValueName(const ExperimentAxis& axis, const std::string& value) {
  // On one line both: a trial's setting keeps its value so (AxisSetting::value).
  const std::string line = scalarShown(value);
  for (size_t i = 0; i < axis.names.size() && i < axis.values.size(); ++i) {
    if (scalarShown(axis.values[i]) == line) return axis.names[i];
  }
  return line;
}

}  // namespace mrnn::engine
