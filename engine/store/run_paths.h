#pragma once

#include <cstdint>
#include <string>

#include "engine/io/atomic_file.h"

namespace mrnn::engine {

// Where a project keeps its runs: <folder>/runs.sqlite and <folder>/checkpoints/run-<id>/.
// RunCatalogue is what finds and changes runs; these are only the names.
struct RunPaths {
  static std::string database(const std::string& projectFolder) {
    return projectFolder + "/runs.sqlite";
  }
  // Every run's checkpoint folder is in here.
  static std::string checkpoints(const std::string& projectFolder) {
    return projectFolder + "/checkpoints";
  }
  static std::string checkpointFolder(const std::string& projectFolder, int64_t runId) {
    return checkpoints(projectFolder) + "/run-" + std::to_string(runId);
  }
  static std::string latest(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/latest.pt";
  }
  static std::string best(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/best.pt";
  }
  // The id a name in the checkpoints folder stands for ("run-12": 12), 0 for any other name
  // (ids of up to 18 digits: no id the database hands out is longer).
  static int64_t idOfFolderName(const std::string& name) {
    static const std::string prefix = "run-";
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() ||
        name.size() > prefix.size() + 18) {
      return 0;
    }
    for (size_t i = prefix.size(); i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return 0;
    }
    return std::stoll(name.substr(prefix.size()));
  }
  // The metric points a stop could not write to a held database, until the run resumes
  // (engine/store/unwritten_metrics.h).
  static std::string unwrittenMetrics(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/" + kUnwrittenMetricsName;
  }
  static constexpr const char* kUnwrittenMetricsName = "unwritten-metrics.tsv";
  // Held (flock) by the one process writing the run; see RunLock.
  static std::string writerLock(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/writer.lock";
  }
  // Whether `name` in a run's checkpoint folder is one the workbench writes there: its two
  // checkpoints, its lock, its unwritten metric points, or a temporary an atomic save of one of
  // them left when its process died. Anything else there is the user's.
  static bool isRunFile(const std::string& name) {
    return name == "latest.pt" || name == "best.pt" || name == "writer.lock" ||
           name == kUnwrittenMetricsName || isLeftoverTemporary(name);
  }
  static bool isLeftoverTemporary(const std::string& name) {
    return isTemporaryOf(name, "latest.pt") || isTemporaryOf(name, "best.pt") ||
           isTemporaryOf(name, kUnwrittenMetricsName);
  }
};

}  // namespace mrnn::engine
