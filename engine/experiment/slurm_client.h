#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/experiment/slurm_jobs.h"

namespace mrnn::engine {

// The Slurm commands the executor runs (sbatch, squeue, scancel; found through PATH, and
// SLURM_CONF in the environment names the cluster). Its functions are virtual so that the
// queue's decisions are tested without a cluster; this class runs the real commands.
class SlurmClient {
 public:
  virtual ~SlurmClient() = default;

  // Whether sbatch, squeue and scancel are on PATH; else `missing` names the first absent one.
  static bool available(std::string* missing = nullptr);

  // Submits a job with these sbatch arguments (the first is --parsable); returns its job id.
  // Throws std::runtime_error with sbatch's own message when it refuses.
  virtual std::string submit(const std::vector<std::string>& sbatchArgs);
  // Every task squeue knows of the jobs named `jobName`, by id. Throws std::runtime_error with
  // squeue's message when it fails (slurmctld unreachable).
  virtual std::map<std::string, SlurmJobState> jobs(const std::string& jobName);
  // scancel: pending tasks never start; running ones get SIGTERM (mrnn saves a checkpoint),
  // then SIGKILL after the cluster's KillWait. Throws std::runtime_error when scancel fails.
  virtual void cancel(const std::vector<std::string>& taskIds);
};

}  // namespace mrnn::engine
