#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/trial_executor.h"
#include "engine/runtime/child_handle.h"

namespace mrnn::engine {

// The local executor: each trial is an `mrnn experiment trial` child of the queue on this
// machine, its output in the trial's log, training into the project's own run store. Children
// die with their queue (the kernel sends them SIGTERM), so nothing outlives a queue run. On
// CUDA each slot is one GPU, and each child sees only its own (CUDA_VISIBLE_DEVICES).
class LocalExecutor : public TrialExecutor {
 public:
  ExecutorKind kind() const override { return ExecutorKind::Local; }
  // Its runs are the store's own: trained here, not imported.
  bool trained(const RunStore& store, int64_t runId) const override;

  std::vector<std::string> begin(QueueRun& queue) override;
  int64_t freeSlots() const override;
  bool holds(int64_t index) const override;
  bool idle() const override { return active_.empty(); }
  bool poll(QueueRun& queue) override;
  void start(QueueRun& queue, const std::vector<TrialRecord>& trials) override;
  void stopAll(QueueRun& queue) override;

 private:
  struct ActiveTrial {
    ChildHandle child;
    int64_t trial = 0;
    int64_t gpu = -1;  // the GPU it trains on, or -1
  };

  // The lowest GPU no running trial holds.
  int64_t freeGpu() const;

  SlotPlan slots_;
  int64_t gpus_ = 0;  // GPUs the trials share; 0: they train on the CPU
  std::vector<ActiveTrial> active_;
};

}  // namespace mrnn::engine
