#include "engine/experiment/experiment_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "engine/config/cell_type.h"
#include "engine/config/config_error.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/atomic_file.h"
#include "engine/io/trimmed.h"

namespace mrnn::engine {
namespace {

SpecLocation locate(const YAML::Node& node, const std::string& key) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {key, 0, 0};
  return {key, mark.line + 1, mark.column + 1};
}

std::string yamlText(const YAML::Node& node) {
  return YAML::Dump(node);
}

std::string indexed(const std::string& key, size_t index) {
  return key + "[" + std::to_string(index) + "]";
}

// The last part of a key path, without its index: "model.layers[0].type" -> "type".
std::string shortLabel(const std::string& key) {
  const auto dot = key.rfind('.');
  std::string last = dot == std::string::npos ? key : key.substr(dot + 1);
  const auto bracket = last.find('[');
  return bracket == std::string::npos ? last : last.substr(0, bracket);
}

// The layer a key path names ("model.layers[2]..." -> 2), or -1.
int64_t layerOfKey(const std::string& key) {
  const std::string prefix = "model.layers[";
  if (key.rfind(prefix, 0) != 0) return -1;
  const auto close = key.find(']', prefix.size());
  if (close == std::string::npos) return -1;
  try {
    return std::stoll(key.substr(prefix.size(), close - prefix.size()));
  } catch (const std::exception&) {
    return -1;
  }
}

bool isInteger(const std::string& raw) {
  if (raw.empty()) return false;
  size_t start = raw[0] == '-' || raw[0] == '+' ? 1 : 0;
  if (start == raw.size()) return false;
  for (size_t i = start; i < raw.size(); ++i) {
    if (raw[i] < '0' || raw[i] > '9') return false;
  }
  return true;
}

// A whole number 0 or above written at `node` (isInteger said so, and no '-'), or a
// ConfigError naming it when it is above `most` (or past 64 bits).
uint64_t wholeNumberAt(YamlReader& reader, const YAML::Node& node, const std::string& key,
                       uint64_t most = std::numeric_limits<uint64_t>::max()) {
  bool fits = true;
  uint64_t value = 0;
  try {
    value = std::stoull(node.Scalar());
  } catch (const std::exception&) {
    fits = false;
  }
  if (!fits || value > most) reader.fail(node, key, "'" + node.Scalar() + "' is too large");
  return value;
}

double numberAt(YamlReader& reader, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar()) reader.fail(node, key, "expected a number");
  try {
    size_t used = 0;
    const double value = std::stod(node.Scalar(), &used);
    if (used != node.Scalar().size() || !std::isfinite(value)) throw std::invalid_argument("");
    return value;
  } catch (const std::exception&) {
    reader.fail(node, key, "expected a number, got '" + node.Scalar() + "'");
  }
}

void checkKeyPath(YamlReader& reader, const YAML::Node& node, const std::string& key,
                  const std::string& path) {
  if (path.empty())
    reader.fail(node, key, "names no key; give a path such as training.optimizer.lr");
  const std::string first = path.substr(0, path.find_first_of(".["));
  const std::vector<std::string> sections{"name", "description", "model",
                                          "data", "training",    "evaluation"};
  bool known = false;
  for (const auto& section : sections) known = known || section == first;
  if (!known) {
    reader.fail(node, key,
                "'" + path +
                    "' is not a key of a project file; it starts with model, data, "
                    "training or evaluation");
  }
}

// `names`: one short name per value of a list axis, each different, for its tables.
void parseValueNames(const YAML::Node& node, YamlReader& reader, const std::string& path,
                     ExperimentAxis& axis) {
  const YAML::Node names = node["names"];
  if (!names) return;
  const std::string key = path + ".names";
  if (!names.IsSequence() || names.size() != axis.values.size()) {
    reader.fail(
        names, key,
        "expected a list of " + std::to_string(axis.values.size()) + " names, one for each value");
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string at = indexed(key, i);
    if (!names[i].IsScalar() || trimmed(names[i].Scalar()).empty()) {
      reader.fail(names[i], at, "expected a name (text)");
    }
    const std::string name = trimmed(names[i].Scalar());
    if (std::find(axis.names.begin(), axis.names.end(), name) != axis.names.end()) {
      reader.fail(names[i], at, "'" + name + "' names two values; give each its own");
    }
    axis.names.push_back(name);
  }
}

ExperimentAxis parseAxis(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  reader.expectMap(node, path,
                   {"key", "also", "values", "names", "range", "log_range", "count", "cells",
                    "match_parameters", "layer"});
  ExperimentAxis axis;
  axis.at = locate(node, path);
  if (!node["key"])
    reader.fail(node, path + ".key", "missing; name the project key this axis varies");
  axis.key = reader.text(node, path, "key", "");
  checkKeyPath(reader, node["key"], path + ".key", axis.key);
  axis.label = shortLabel(axis.key);
  if (const YAML::Node also = node["also"]) {
    if (!also.IsSequence()) reader.fail(also, path + ".also", "expected a list of key paths");
    for (size_t i = 0; i < also.size(); ++i) {
      const std::string key = indexed(path + ".also", i);
      if (!also[i].IsScalar()) reader.fail(also[i], key, "expected a key path");
      checkKeyPath(reader, also[i], key, also[i].Scalar());
      axis.also.push_back(also[i].Scalar());
    }
  }
  int kinds = 0;
  for (const char* kind : {"values", "range", "log_range", "cells"}) kinds += node[kind] ? 1 : 0;
  if (kinds != 1) {
    reader.fail(node, path,
                "give exactly one of values, range, log_range or cells (this axis has " +
                    std::to_string(kinds) + ")");
  }
  axis.count = reader.integer(node, path, "count", 0, 2, 1000);
  if (node["values"] || node["cells"]) {
    const bool cells = static_cast<bool>(node["cells"]);
    const std::string listKey = joinKey(path, cells ? "cells" : "values");
    const YAML::Node list = node[cells ? "cells" : "values"];
    if (!list.IsSequence() || list.size() == 0) {
      reader.fail(list, listKey, "expected a list of at least one value");
    }
    axis.kind = cells ? AxisKind::Cells : AxisKind::Values;
    for (size_t i = 0; i < list.size(); ++i) {
      if (cells) {
        if (!list[i].IsScalar() || !cellTypeFromName(list[i].Scalar())) {
          std::string names;
          for (CellType type : allCellTypes())
            names += (names.empty() ? "" : ", ") + cellTypeName(type);
          reader.fail(list[i], indexed(listKey, i), "not a cell type; expected one of " + names);
        }
      }
      axis.values.push_back(yamlText(list[i]));
    }
    if (node["count"]) reader.fail(node["count"], path + ".count", "only a range has a count");
    parseValueNames(node, reader, path, axis);
  } else {
    if (node["names"]) {
      reader.fail(node["names"], path + ".names", "only a list of values or cells has names");
    }
    const bool log = static_cast<bool>(node["log_range"]);
    const std::string rangeKey = joinKey(path, log ? "log_range" : "range");
    const YAML::Node range = node[log ? "log_range" : "range"];
    if (!range.IsSequence() || range.size() != 2) {
      reader.fail(range, rangeKey, "expected [from, to]");
    }
    axis.kind = log ? AxisKind::LogRange : AxisKind::Range;
    axis.from = numberAt(reader, range[0], indexed(rangeKey, 0));
    axis.to = numberAt(reader, range[1], indexed(rangeKey, 1));
    axis.integer = isInteger(range[0].Scalar()) && isInteger(range[1].Scalar());
    if (!(axis.from < axis.to)) reader.fail(range, rangeKey, "from must be below to");
    if (log && axis.from <= 0.0) reader.fail(range, rangeKey, "a log range must be above 0");
  }
  if (node["match_parameters"] || node["layer"]) {
    if (axis.kind != AxisKind::Cells) {
      reader.fail(node[node["layer"] ? "layer" : "match_parameters"], path,
                  "match_parameters and layer belong to a cells axis");
    }
  }
  axis.matchParameters = reader.integer(node, path, "match_parameters", 0, 1, int64_t{1} << 40);
  axis.layer = reader.integer(node, path, "layer", layerOfKey(axis.key), 0, 1000);
  if (axis.kind == AxisKind::Cells) {
    if (axis.layer < 0) {
      reader.fail(node["key"], path + ".key",
                  "a cells axis varies a layer's type: model.layers[i].type");
    }
    if (axis.key != "model.layers[" + std::to_string(layerOfKey(axis.key)) + "].type") {
      reader.fail(node["key"], path + ".key",
                  "a cells axis varies a layer's type: model.layers[i].type");
    }
  }
  return axis;
}

SearchConfig parseSearch(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  reader.expectMap(node, path, {"kind", "trials", "seed", "rungs", "keep"});
  SearchConfig search;
  const std::string kind = reader.choice(node, path, "kind", "grid", {"grid", "random", "halving"});
  search.kind = kind == "random"    ? SearchKind::Random
                : kind == "halving" ? SearchKind::Halving
                                    : SearchKind::Grid;
  search.trials = reader.integer(node, path, "trials", 0, 1, kMaxConfigurations);
  search.seed = static_cast<uint64_t>(reader.integer(node, path, "seed", 1, 0, INT64_MAX));
  search.keep = reader.number(node, path, "keep", 0.5, 0.0, 1.0, false);
  if (search.keep <= 0.0) reader.fail(node["keep"], path + ".keep", "must be above 0");
  if (search.kind == SearchKind::Random && search.trials == 0) {
    reader.fail(node, path + ".trials", "a random search needs trials: N");
  }
  if (search.kind == SearchKind::Grid && node["trials"]) {
    reader.fail(node["trials"], path + ".trials",
                "a grid runs every combination; trials is for random or halving");
  }
  if (node["rungs"] || node["keep"]) {
    if (search.kind != SearchKind::Halving) {
      reader.fail(node[node["rungs"] ? "rungs" : "keep"], path,
                  "rungs and keep belong to kind: halving");
    }
  }
  if (search.kind == SearchKind::Halving) {
    const YAML::Node rungs = node["rungs"];
    if (!rungs || !rungs.IsSequence() || rungs.size() < 2) {
      reader.fail(rungs ? rungs : node, path + ".rungs",
                  "successive halving needs at least two rungs (steps), such as [200, 400, 800]");
    }
    for (size_t i = 0; i < rungs.size(); ++i) {
      const std::string key = indexed(path + ".rungs", i);
      if (!rungs[i].IsScalar() || !isInteger(rungs[i].Scalar())) {
        reader.fail(rungs[i], key, "expected a step count");
      }
      if (rungs[i].Scalar()[0] == '-') {
        reader.fail(rungs[i], key, "rungs must be positive and increasing");
      }
      const auto step = static_cast<int64_t>(wholeNumberAt(
          reader, rungs[i], key, static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
      if (step <= 0 || (!search.rungs.empty() && step <= search.rungs.back())) {
        reader.fail(rungs[i], key, "rungs must be positive and increasing");
      }
      search.rungs.push_back(step);
    }
  }
  return search;
}

// A mapping of key paths to values that picks configurations (a reference's `when`, a claim's
// side), each key checked as a key path.
std::map<std::string, std::string> parseSelector(const YAML::Node& node, YamlReader& reader,
                                                 const std::string& path) {
  if (!node.IsMap()) reader.fail(node, path, "expected a mapping of key paths to values");
  std::map<std::string, std::string> values;
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    checkKeyPath(reader, entry.first, path + "." + key, key);
    values[key] = yamlText(entry.second);
  }
  return values;
}

ExperimentReference parseReference(const YAML::Node& node, YamlReader& reader,
                                   const std::string& path) {
  reader.expectMap(node, path, {"when", "metric", "value", "source"});
  ExperimentReference reference;
  if (const YAML::Node when = node["when"])
    reference.when = parseSelector(when, reader, path + ".when");
  if (!node["metric"]) reader.fail(node, path + ".metric", "missing; which measure this figure is");
  reference.metric = reader.choice(node, path, "metric", "", experimentMetricNames());
  if (!node["value"]) reader.fail(node, path + ".value", "missing; the published figure");
  reference.value = reader.number(node, path, "value", 0.0, -1e300, 1e300);
  reference.source = reader.text(node, path, "source", "");
  if (reference.source.empty()) {
    reader.fail(node, path + ".source", "missing; say where the figure comes from (paper, table)");
  }
  return reference;
}

// A claim's side: a non-empty selector.
std::map<std::string, std::string> parseClaimSide(const YAML::Node& node, YamlReader& reader,
                                                  const std::string& path,
                                                  const std::string& side) {
  const YAML::Node selector = node[side];
  if (!selector) {
    reader.fail(node, path + "." + side,
                "missing; the setting (key path: value) of the configuration that is " + side);
  }
  if (selector.IsMap() && selector.size() == 0) {
    reader.fail(selector, path + "." + side, "expected a mapping of key paths to values");
  }
  return parseSelector(selector, reader, path + "." + side);
}

ExperimentClaim parseClaim(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  reader.expectMap(node, path, {"better", "worse", "metric", "source"});
  ExperimentClaim claim;
  claim.better = parseClaimSide(node, reader, path, "better");
  claim.worse = parseClaimSide(node, reader, path, "worse");
  claim.betterAt = locate(node["better"], path + ".better");
  claim.worseAt = locate(node["worse"], path + ".worse");
  if (claim.better == claim.worse) {
    reader.fail(node["worse"], path + ".worse", "selects the same setting as 'better'");
  }
  if (!node["metric"])
    reader.fail(node, path + ".metric", "missing; which measure the claim is on");
  claim.metric = reader.choice(node, path, "metric", "", experimentMetricNames());
  claim.source = reader.text(node, path, "source", "");
  if (claim.source.empty()) {
    reader.fail(node, path + ".source", "missing; say where the claim comes from (paper, table)");
  }
  return claim;
}

// Options the Slurm executor sets itself: an extra argument may not repeat them.
bool ownSbatchOption(const std::string& argument) {
  for (const char* option : {"--array", "--output", "--error", "--job-name", "--parsable",
                             "--open-mode", "--wrap", "--chdir"}) {
    const std::string name = option;
    if (argument == name || argument.rfind(name + "=", 0) == 0) return true;
  }
  if (argument.rfind("--", 0) == 0) return false;
  for (const char* option : {"-a", "-o", "-e", "-J", "-D"}) {
    if (argument.rfind(option, 0) == 0) return true;
  }
  return false;
}

std::vector<std::string> textList(const YAML::Node& list, YamlReader& reader,
                                  const std::string& key, const std::string& expected) {
  if (!list.IsSequence()) reader.fail(list, key, "expected a list of " + expected);
  std::vector<std::string> texts;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].IsScalar()) reader.fail(list[i], indexed(key, i), "expected " + expected);
    texts.push_back(list[i].Scalar());
  }
  return texts;
}

SlurmSettings parseSlurm(const YAML::Node& node, YamlReader& reader, const std::string& path) {
  reader.expectMap(
      node, path,
      {"partition", "time", "account", "cpus_per_task", "sbatch_args", "setup", "poll_seconds"});
  SlurmSettings slurm;
  const auto word = [&](const char* name) {
    const std::string value = reader.text(node, path, name, "");
    for (const char c : value) {
      if (std::isspace(static_cast<unsigned char>(c))) {
        reader.fail(node[name], joinKey(path, name), "'" + value + "' holds a space");
      }
    }
    return value;
  };
  slurm.partition = word("partition");
  slurm.account = word("account");
  slurm.time = word("time");
  for (const char c : slurm.time) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != ':' && c != '-') {
      reader.fail(
          node["time"], path + ".time",
          "'" + slurm.time + "' is not a Slurm time limit; write minutes, H:MM:SS or D-HH:MM:SS");
    }
  }
  slurm.cpusPerTask = reader.integer(node, path, "cpus_per_task", 0, 1, 1024);
  slurm.pollSeconds = reader.integer(node, path, "poll_seconds", 10, 1, 3600);
  if (const YAML::Node args = node["sbatch_args"]) {
    slurm.sbatchArgs = textList(args, reader, path + ".sbatch_args", "sbatch options");
    for (size_t i = 0; i < slurm.sbatchArgs.size(); ++i) {
      const std::string& argument = slurm.sbatchArgs[i];
      const std::string key = indexed(path + ".sbatch_args", i);
      if (argument.empty() || argument[0] != '-') {
        reader.fail(args[i], key,
                    "'" + argument + "' is not an sbatch option (write each as --name=value)");
      }
      if (ownSbatchOption(argument)) {
        reader.fail(args[i], key,
                    "'" + argument +
                        "' is set by the Slurm executor itself (the array, the log files, the "
                        "job's name and folder)");
      }
    }
  }
  if (const YAML::Node setup = node["setup"]) {
    slurm.setup = textList(setup, reader, path + ".setup", "shell lines");
  }
  return slurm;
}

// A grid enumerates its axes' product; past kMaxConfigurations it is refused at the axes,
// with the product written out, before anything is planned.
void checkGridSize(const Experiment& experiment) {
  double product = 1.0;  // exact far past the cap; no integer overflow on many axes
  std::string factors;
  for (const ExperimentAxis& axis : experiment.axes) {
    const bool range = axis.kind == AxisKind::Range || axis.kind == AxisKind::LogRange;
    const int64_t points = range ? axis.count : static_cast<int64_t>(axis.values.size());
    factors += (factors.empty() ? "" : " x ") + std::to_string(points);
    product *= static_cast<double>(points);
  }
  if (product <= static_cast<double>(kMaxConfigurations)) return;
  char total[32];
  std::snprintf(total, sizeof total, product < 1e15 ? "%.0f" : "%.3g", product);
  const ExperimentAxis& first = experiment.axes.front();
  throw ConfigError(experiment.file, first.at.line, first.at.column, "experiment.axes",
                    "the grid has " + factors +
                        (experiment.axes.size() > 1 ? " = " + std::string(total) : "") +
                        " configurations, more than the " + std::to_string(kMaxConfigurations) +
                        " an experiment may have; take fewer points, or sample the same "
                        "space with search: {kind: random, trials: N}");
}

}  // namespace

const std::vector<ExecutorKind>& executorKinds() {
  static const std::vector<ExecutorKind> kinds{ExecutorKind::Local, ExecutorKind::Slurm};
  return kinds;
}

std::string executorKindName(ExecutorKind kind) {
  switch (kind) {
    case ExecutorKind::Local:
      return "local";
    case ExecutorKind::Slurm:
      return "slurm";
  }
  return "local";  // not reached: every kind is above
}

std::optional<ExecutorKind> executorKindNamed(const std::string& name) {
  for (const ExecutorKind kind : executorKinds()) {
    if (executorKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string searchKindName(SearchKind kind) {
  switch (kind) {
    case SearchKind::Random:
      return "random";
    case SearchKind::Halving:
      return "halving";
    case SearchKind::Grid:
      break;
  }
  return "grid";
}

const std::vector<std::string>& experimentMetricNames() {
  static const std::vector<std::string> names{"valid_bpc", "test_bpc", "valid_perplexity",
                                              "test_perplexity", "test_error_rate"};
  return names;
}

Experiment parseExperiment(const std::string& text, const std::string& file) {
  const YAML::Node root = loadYamlText(text, file);
  YamlReader reader(file);
  if (!root || root.IsNull()) {
    throw ConfigError(file, 0, 0, "",
                      "the experiment file is empty; it needs an 'experiment:' section");
  }
  try {
    reader.expectMap(root, "", {"experiment"});
    const YAML::Node node = root["experiment"];
    if (!node)
      reader.fail(root, "experiment", "missing; an experiment file has one 'experiment:' section");
    const std::string path = "experiment";
    reader.expectMap(node, path,
                     {"name", "description", "base", "set", "axes", "search", "seeds", "slots",
                      "threads", "references", "claims", "executor", "slurm"});
    Experiment experiment;
    experiment.file = file;
    const std::string stem = std::filesystem::path(file).stem().string();
    experiment.name = reader.text(node, path, "name", stem.empty() ? "experiment" : stem);
    for (const char c : experiment.name) {
      const bool safe =
          std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
      if (!safe) {
        reader.fail(node["name"] ? node["name"] : node, path + ".name",
                    "'" + experiment.name +
                        "': use letters, digits, '-', '_' and '.' only (it names a folder)");
      }
    }
    experiment.description = reader.text(node, path, "description", "");
    const std::string base = reader.text(node, path, "base", "../project.yaml");
    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    experiment.baseFile = std::filesystem::path(base).is_absolute()
                              ? base
                              : (folder.empty() ? std::filesystem::path(base) : folder / base)
                                    .lexically_normal()
                                    .string();
    if (const YAML::Node set = node["set"]) {
      if (!set.IsMap())
        reader.fail(set, path + ".set", "expected a mapping of key paths to values");
      reader.expectUniqueKeys(set, path + ".set");
      for (const auto& entry : set) {
        const std::string key = entry.first.as<std::string>();
        checkKeyPath(reader, entry.first, path + ".set." + key, key);
        experiment.set.emplace_back(key, yamlText(entry.second));
        experiment.setAt.push_back(locate(entry.first, path + ".set." + key));
      }
    }
    if (const YAML::Node axes = node["axes"]) {
      if (!axes.IsSequence()) reader.fail(axes, path + ".axes", "expected a list of axes");
      for (size_t i = 0; i < axes.size(); ++i) {
        experiment.axes.push_back(parseAxis(axes[i], reader, indexed(path + ".axes", i)));
      }
    }
    if (node["search"]) experiment.search = parseSearch(node["search"], reader, path + ".search");
    if (const YAML::Node seeds = node["seeds"]) {
      if (!seeds.IsSequence() || seeds.size() == 0) {
        reader.fail(seeds, path + ".seeds", "expected a list of seeds such as [1, 2, 3]");
      }
      experiment.seeds.clear();
      for (size_t i = 0; i < seeds.size(); ++i) {
        const std::string key = indexed(path + ".seeds", i);
        if (!seeds[i].IsScalar() || !isInteger(seeds[i].Scalar()) || seeds[i].Scalar()[0] == '-') {
          reader.fail(seeds[i], key, "expected a seed (a whole number, 0 or above)");
        }
        const uint64_t seed = wholeNumberAt(reader, seeds[i], key);
        for (const uint64_t earlier : experiment.seeds) {
          if (earlier == seed) reader.fail(seeds[i], key, "repeats seed " + seeds[i].Scalar());
        }
        experiment.seeds.push_back(seed);
      }
    }
    experiment.slotCount = reader.integer(node, path, "slots", 0, 1, 1024);
    experiment.threads = reader.integer(node, path, "threads", 0, 1, 1024);
    if (const YAML::Node references = node["references"]) {
      if (!references.IsSequence()) {
        reader.fail(references, path + ".references", "expected a list of references");
      }
      for (size_t i = 0; i < references.size(); ++i) {
        experiment.references.push_back(
            parseReference(references[i], reader, indexed(path + ".references", i)));
      }
    }
    if (const YAML::Node claims = node["claims"]) {
      if (!claims.IsSequence()) reader.fail(claims, path + ".claims", "expected a list of claims");
      for (size_t i = 0; i < claims.size(); ++i) {
        experiment.claims.push_back(parseClaim(claims[i], reader, indexed(path + ".claims", i)));
      }
    }
    std::vector<std::string> executors;
    for (const ExecutorKind kind : executorKinds()) executors.push_back(executorKindName(kind));
    experiment.executor =
        *executorKindNamed(reader.choice(node, path, "executor", "local", executors));
    if (node["slurm"]) experiment.slurm = parseSlurm(node["slurm"], reader, path + ".slurm");
    // Drawn configurations take any value of a range; a grid (and halving over the grid)
    // needs its points.
    const bool drawn =
        experiment.search.kind == SearchKind::Random ||
        (experiment.search.kind == SearchKind::Halving && experiment.search.trials > 0);
    if (!drawn) {
      for (const ExperimentAxis& axis : experiment.axes) {
        const bool range = axis.kind == AxisKind::Range || axis.kind == AxisKind::LogRange;
        if (range && axis.count == 0) {
          throw ConfigError(file, axis.at.line, axis.at.column, axis.at.key + ".count",
                            "a " + searchKindName(experiment.search.kind) +
                                " search takes count: N points of this range");
        }
      }
      checkGridSize(experiment);
    }
    return experiment;
  } catch (const YAML::Exception& error) {
    throw ConfigError(file, error.mark.is_null() ? 0 : error.mark.line + 1,
                      error.mark.is_null() ? 0 : error.mark.column + 1, "",
                      "unexpected YAML structure: " + error.msg);
  }
}

Experiment loadExperiment(const std::string& path) {
  std::string text;
  try {
    text = readWholeFile(path);
  } catch (const FileReadError& error) {
    throw ConfigError(path, 0, 0, "", error.reason());
  }
  return parseExperiment(text, path);
}

}  // namespace mrnn::engine
