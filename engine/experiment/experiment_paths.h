#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// Where an experiment keeps what is not in the run database: <project>/experiment-logs/<name>/
// with the queue's lock, each trial's lock and each trial's output.
struct ExperimentPaths {
  static std::string folder(const std::string& projectFolder, const std::string& experiment) {
    return projectFolder + "/experiment-logs/" + experiment;
  }
  // Held (flock) by the one queue process of the experiment.
  static std::string queueLock(const std::string& projectFolder, const std::string& experiment) {
    return folder(projectFolder, experiment) + "/queue.lock";
  }
  // Held by the child training the trial.
  static std::string trialLock(const std::string& projectFolder, const std::string& experiment,
                               int64_t trial) {
    return folder(projectFolder, experiment) + "/trial-" + std::to_string(trial + 1) + ".lock";
  }
  static std::string trialLog(const std::string& projectFolder, const std::string& experiment,
                              int64_t trial) {
    return folder(projectFolder, experiment) + "/trial-" + std::to_string(trial + 1) + ".log";
  }
};

}  // namespace mrnn::engine
