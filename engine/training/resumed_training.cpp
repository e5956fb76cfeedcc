#include "engine/training/resumed_training.h"

#include <filesystem>
#include <map>

#include <yaml-cpp/yaml.h>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/training/checkpoint.h"

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
  if (training.maxSeconds > 0) length.maxSeconds = training.maxSeconds;
  return length;
}

void applyRunLength(TrainingConfig& training, const RunLength& length) {
  if (length.epochs) {
    training.epochs = *length.epochs;
    if (!length.maxSteps) training.maxSteps = 0;
  }
  if (length.maxSteps) training.maxSteps = *length.maxSteps;
  if (length.maxSeconds) training.maxSeconds = *length.maxSeconds;
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

// The run whose checkpoint folder holds `path` (<project>/checkpoints/run-<id>/), or 0 when it
// lies elsewhere.
int64_t runOfFolder(const std::string& path, const RunCatalogue& catalogue) {
  std::error_code error;
  const auto folder =
      std::filesystem::weakly_canonical(std::filesystem::absolute(path).parent_path(), error);
  const auto root = std::filesystem::weakly_canonical(
      std::filesystem::absolute(RunPaths::checkpoints(catalogue.folder())), error);
  if (error || folder.parent_path() != root) return 0;
  return RunPaths::idOfFolderName(folder.filename().string());
}

void checkCheckpointBelongs(const TrainingSnapshot& s, const std::string& path,
                            const RunCatalogue& catalogue) {
  const std::string ours = catalogue.projectId();
  const std::string run = "run " + std::to_string(s.runId);
  // A file copied into another run's folder: resuming that run must not continue this one.
  const int64_t folderRun = runOfFolder(path, catalogue);
  if (folderRun != 0 && folderRun != s.runId) {
    throw CheckpointError("checkpoint '" + path + "' lies in run " + std::to_string(folderRun) +
                          "'s folder but holds " + run + "'s state; resuming it would rewind " +
                          run + ", not continue run " + std::to_string(folderRun) +
                          ". Put back run " + std::to_string(folderRun) +
                          "'s own checkpoint, or resume " + run + " from its own folder");
  }
  if (!s.projectId.empty()) {
    if (catalogue.ownsProjectId(s.projectId)) return;
    throw CheckpointError("checkpoint '" + path + "' belongs to " + run + " of another project " +
                          "(project id " + s.projectId + "; this one is " + ours +
                          "); resuming it here would replace this project's " + run +
                          ". Resume it in its own project");
  }
  std::error_code error;
  const auto folder =
      std::filesystem::weakly_canonical(std::filesystem::absolute(path).parent_path(), error);
  const auto expected = std::filesystem::weakly_canonical(
      std::filesystem::absolute(RunPaths::checkpointFolder(catalogue.folder(), s.runId)), error);
  if (!error && folder == expected) return;
  throw CheckpointError("checkpoint '" + path + "' carries no project identity (it predates " +
                        "them) and is not in this project's folder for " + run + " (" +
                        RunPaths::checkpointFolder(catalogue.folder(), s.runId) +
                        "), so it may be another project's; resume it from there");
}

}  // namespace mrnn::engine
