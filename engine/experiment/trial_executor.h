#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/store/experiment_ledger.h"

namespace mrnn::engine {

class RunStore;
struct QueueOptions;
struct QueueRun;

// What trains an experiment's trials for its one queue (runExperimentQueue): `mrnn experiment
// trial` children on this machine (LocalExecutor) or Slurm job arrays (SlurmExecutor). The
// queue keeps what does not depend on where trials train, so that every executor behaves
// alike: the lock, the ledger matched to the plan, the stop request, successive halving, which
// trials are pending and how the queue ends. An executor only starts trials, learns which
// ended (recording each through QueueRun::recordExit) and stops them. Adding one: a class of
// its own files, its ExecutorKind and name (experiment_spec), and a line in trial_executors.cpp.
class TrialExecutor {
 public:
  virtual ~TrialExecutor() = default;

  virtual ExecutorKind kind() const = 0;
  // Why it cannot train trials from this machine (a program missing), or nothing.
  virtual std::optional<std::string> unavailable() const { return std::nullopt; }

  // `mrnn experiment status`, with or without a queue: what it knows of the trials beyond the
  // ledger goes into their rows (Slurm: each job's state); returns lines to print above them.
  virtual std::vector<std::string> describeTrials(std::vector<TrialProgress>& /*rows*/) {
    return {};
  }
  // `mrnn experiment stop` with no queue running: stops the trials it still has going (Slurm
  // jobs outlive their queue) and says what it did; nothing when it has none. Throws
  // std::runtime_error when it cannot.
  virtual std::optional<std::string> stopWithoutQueue() { return std::nullopt; }
  // Whether it trained this run of the project's store (a trial's): no executor continues
  // another's checkpoints, so a queue refuses trials whose runs another trained.
  virtual bool trained(const RunStore& store, int64_t runId) const = 0;

  // A queue run calls the rest, in this order.
  // Once the queue holds its lock, before it reads the ledger: what an earlier queue run left
  // behind (Slurm: its jobs, and --replan refused while they live).
  virtual void open(const QueueOptions& /*options*/) {}
  // The ledger matches the plan: chooses slots and threads and takes back the trials it still
  // trains. Returns the queue's opening lines (trials, slots, threads, what it took back).
  virtual std::vector<std::string> begin(QueueRun& queue) = 0;
  // How many more trials start() may take now (no limit of its own: int64_t's largest).
  virtual int64_t freeSlots() const = 0;
  // Whether a process of its own trains trial `index` now.
  virtual bool holds(int64_t index) const = 0;
  // Whether it trains no trial now.
  virtual bool idle() const = 0;
  // Records the trials that ended since the last call. False: it learnt nothing (it asks its
  // scheduler less often than the queue polls) and the queue decides nothing this round.
  virtual bool poll(QueueRun& queue) = 0;
  // Starts these pending trials (at most freeSlots(), none held by a process left from an
  // earlier queue run) and marks them running, or failed when one cannot start.
  virtual void start(QueueRun& queue, const std::vector<TrialRecord>& trials) = 0;
  // Asks every trial it trains to stop with a checkpoint (QueueRun::stopping is set); poll()
  // goes on recording them as they end.
  virtual void stopAll(QueueRun& queue) = 0;
};

}  // namespace mrnn::engine
