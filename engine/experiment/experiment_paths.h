#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// Where an experiment keeps what is not in the run database: <project>/experiment-logs/<name>/
// with the queue's lock, each trial's lock and each trial's output; on Slurm also slurm/ with
// the job script, the jobs not yet collected and each trial's private run folder.
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
  // How much of a trial log's end is read for its last words or step: a long training's log
  // can be larger than any text file read whole.
  static constexpr uint64_t kTrialLogTailBytes = uint64_t{1} << 20;

  // The Slurm executor (docs/distributed.md).
  static std::string slurmFolder(const std::string& projectFolder, const std::string& experiment) {
    return folder(projectFolder, experiment) + "/slurm";
  }
  // The trials' job ids not yet collected ("<trial number> <array job id>_<trial number>").
  static std::string slurmJobs(const std::string& projectFolder, const std::string& experiment) {
    return slurmFolder(projectFolder, experiment) + "/jobs";
  }
  // The batch script every array task runs.
  static std::string slurmScript(const std::string& projectFolder, const std::string& experiment) {
    return slurmFolder(projectFolder, experiment) + "/trial.sh";
  }
  // A trial's own run folder on Slurm: its runs.sqlite and checkpoints/, written by its job
  // alone; the queue imports its runs into the project's store once the job has ended.
  static std::string slurmRunFolder(const std::string& projectFolder, const std::string& experiment,
                                    int64_t trial) {
    return slurmFolder(projectFolder, experiment) + "/trial-" + std::to_string(trial + 1);
  }
  // What the queue tells the trial's job: its fingerprint, budget and run (SlurmTicket).
  static std::string slurmTicket(const std::string& projectFolder, const std::string& experiment,
                                 int64_t trial) {
    return slurmRunFolder(projectFolder, experiment, trial) + "/ticket";
  }
  // The exit status the trial of job `jobId` wrote as it ended.
  static std::string slurmExit(const std::string& projectFolder, const std::string& experiment,
                               int64_t trial, const std::string& jobId) {
    return slurmRunFolder(projectFolder, experiment, trial) + "/exit-" + jobId;
  }
};

}  // namespace mrnn::engine
