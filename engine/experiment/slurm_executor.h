#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/slurm_client.h"
#include "engine/experiment/slurm_jobs.h"
#include "engine/experiment/trial_executor.h"

namespace mrnn::engine {

// The Slurm executor (docs/distributed.md): the queue's trials as Slurm job arrays, each array
// task one `mrnn experiment trial` training into the trial's own run folder
// (ExperimentPaths::slurmRunFolder). Only the queue, on the submit host, writes the project's
// runs.sqlite: it imports each trial's run once its job has ended (collectSlurmTrial; SQLite is
// not safe across the machines of a network file system). Slurm jobs outlive the queue: the
// jobs file names them, so a queue run again leaves the live ones be and collects the ended
// ones, and `status` and `stop` reach them without a queue.
class SlurmExecutor : public TrialExecutor {
 public:
  // Runs the real sbatch, squeue and scancel.
  SlurmExecutor(std::string projectFolder, std::string experiment);
  // Through `client`, which must outlive it (tests give a stand-in).
  SlurmExecutor(std::string projectFolder, std::string experiment, SlurmClient& client);

  ExecutorKind kind() const override { return ExecutorKind::Slurm; }
  // Its runs are imported from the trials' own run folders (RunStore::origin).
  bool trained(const RunStore& store, int64_t runId) const override;
  std::optional<std::string> unavailable() const override;
  std::vector<std::string> describeTrials(std::vector<TrialProgress>& rows) override;
  std::optional<std::string> stopWithoutQueue() override;

  // Throws ExperimentChangedError on --replan while a job of the experiment lives, and
  // std::runtime_error when squeue fails.
  void open(const QueueOptions& options) override;
  std::vector<std::string> begin(QueueRun& queue) override;
  // A whole array goes out at once; `slots` only throttles it within Slurm ("%N").
  int64_t freeSlots() const override;
  bool holds(int64_t index) const override { return jobs_.count(index) > 0; }
  bool idle() const override { return jobs_.empty(); }
  // Asks squeue at most every slurm.poll_seconds (slurmctld answers every user's squeue);
  // throws std::runtime_error once squeue has failed kSqueueAttempts times in a row.
  bool poll(QueueRun& queue) override;
  // Throws std::runtime_error with sbatch's message when it refuses (the trials stay queued).
  void start(QueueRun& queue, const std::vector<TrialRecord>& trials) override;
  void stopAll(QueueRun& queue) override;

  // Failed squeue calls in a row before the queue gives up (slurmctld gone for good).
  static constexpr int kSqueueAttempts = 10;

 private:
  using Clock = std::chrono::steady_clock;

  void saveJobs() const;
  // Imports the run of job `id` (ended, its trial's lock free) and records how it ended.
  void collectJob(QueueRun& queue, int64_t index, const std::string& id,
                  const SlurmJobState* state);

  std::string folder_;
  std::string name_;
  std::string jobName_;
  std::unique_ptr<SlurmClient> ownClient_;  // when it runs the real commands
  SlurmClient& client_;

  SlurmJobs jobs_;  // the trials whose jobs are not yet collected, as in the jobs file
  std::map<std::string, SlurmJobState> states_;  // squeue's last answer
  bool fresh_ = false;                           // `states_` was just read: no need to ask
  int squeueFailures_ = 0;
  Clock::time_point nextPoll_;
  Clock::duration pollEvery_{};
  SlotPlan slots_;
  SlurmSubmission submission_;
};

}  // namespace mrnn::engine
