#include "engine/training/resumed_training.h"

#include <map>

#include <yaml-cpp/yaml.h>

namespace mrnn::engine {
namespace {

// A training section as "key.path" -> value text, from its own YAML form, so that every
// setting (those added later too) is compared without a list of fields to keep up to date.
void flatten(const YAML::Node& node, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (node.IsMap()) {
    for (const auto& item : node) {
      const std::string key = item.first.as<std::string>();
      flatten(item.second, prefix.empty() ? key : prefix + "." + key, out);
    }
  } else if (node.IsSequence()) {
    std::string text = "[";
    for (size_t i = 0; i < node.size(); ++i) {
      text += (i ? ", " : "") + node[i].as<std::string>();
    }
    out[prefix] = text + "]";
  } else if (node.IsScalar()) {
    out[prefix] = node.as<std::string>();
  }
}

std::map<std::string, std::string> settings(const TrainingConfig& training) {
  YAML::Emitter emitter;
  emitTrainingSection(emitter, training);
  std::map<std::string, std::string> out;
  flatten(YAML::Load(emitter.c_str()), "", out);
  return out;
}

}  // namespace

RunLength lengthOf(const TrainingConfig& training) {
  RunLength length;
  length.epochs = training.epochs;
  if (training.maxSteps > 0) length.maxSteps = training.maxSteps;
  return length;
}

void applyRunLength(TrainingConfig& training, const RunLength& length) {
  if (length.epochs) {
    training.epochs = *length.epochs;
    if (!length.maxSteps) training.maxSteps = 0;
  }
  if (length.maxSteps) training.maxSteps = *length.maxSteps;
}

TrainingConfig resumedTraining(const TrainingConfig& current, const TrainingConfig& started,
                               const RunLength& length, std::vector<std::string>* differences) {
  TrainingConfig resumed = started;
  resumed.device = current.device;
  resumed.threads = current.threads;
  resumed.bf16 = current.bf16;
  applyRunLength(resumed, length);
  if (differences) {
    const auto now = settings(current);
    const auto kept = settings(resumed);
    for (const auto& [key, value] : now) {
      const auto run = kept.find(key);
      if (run == kept.end()) {
        // A key the run's optimiser or schedule type does not read: its type differs, and
        // that difference is listed under the type's own key.
        continue;
      }
      if (run->second != value) {
        differences->push_back(key + " " + value + " (the run's: " + run->second + ")");
      }
    }
  }
  return resumed;
}

std::string keptSettingsNote(int64_t runId, const std::vector<std::string>& differences) {
  if (differences.empty()) return "";
  std::string line = "run " + std::to_string(runId) +
                     " continues with the settings it started with, though the project now sets";
  bool length = false;
  for (size_t i = 0; i < differences.size(); ++i) {
    line += (i ? ", " : " ") + differences[i];
    length = length || differences[i].rfind("max_steps ", 0) == 0 ||
             differences[i].rfind("epochs ", 0) == 0;
  }
  line += "; a new run trains with them";
  if (length) line += ", and `mrnn resume --max-steps N` or `--epochs N` sets this run's length";
  return line;
}

}  // namespace mrnn::engine
