#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// Where a project keeps its runs: <folder>/runs.sqlite and <folder>/checkpoints/run-<id>/.
struct RunPaths {
  static std::string database(const std::string& projectFolder) {
    return projectFolder + "/runs.sqlite";
  }
  static std::string checkpointFolder(const std::string& projectFolder, int64_t runId) {
    return projectFolder + "/checkpoints/run-" + std::to_string(runId);
  }
  static std::string latest(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/latest.pt";
  }
  static std::string best(const std::string& projectFolder, int64_t runId) {
    return checkpointFolder(projectFolder, runId) + "/best.pt";
  }
};

}  // namespace mrnn::engine
