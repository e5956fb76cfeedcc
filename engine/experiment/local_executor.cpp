#include "engine/experiment/local_executor.h"

#include <signal.h>

#include "engine/config/device_name.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/queue_run.h"
#include "engine/runtime/machine_resources.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

bool LocalExecutor::trained(const RunStore& store, int64_t runId) const {
  return !store.origin(runId).has_value();
}

std::vector<std::string> LocalExecutor::begin(QueueRun& queue) {
  const ExperimentPlan& plan = queue.plan;
  bool onCuda = false;
  for (const TrialPlan& trial : plan.trials)
    onCuda = onCuda || namesCudaDevice(trial.project.training.device);
  gpus_ = onCuda ? queue.options.gpus : 0;
  slots_ = chooseSlots(plan.experiment, static_cast<int64_t>(plan.trials.size()), hardwareThreads(),
                       queue.options.slotCount, queue.options.threads, gpus_);
  std::vector<std::string> lines{
      "experiment '" + queue.name() + "': " + std::to_string(plan.trials.size()) + " trials, " +
      std::to_string(slots_.count) + " at a time, " + std::to_string(slots_.threads) +
      (slots_.threads == 1 ? " thread" : " threads") + " each"};
  if (onCuda && gpus_ == 0)
    lines.push_back("the trials train on cuda, but this machine shows no GPU");
  return lines;
}

int64_t LocalExecutor::freeSlots() const {
  return slots_.count - static_cast<int64_t>(active_.size());
}

bool LocalExecutor::holds(int64_t index) const {
  for (const ActiveTrial& a : active_) {
    if (a.trial == index) return true;
  }
  return false;
}

int64_t LocalExecutor::freeGpu() const {
  for (int64_t gpu = 0; gpu < gpus_; ++gpu) {
    bool taken = false;
    for (const ActiveTrial& a : active_) taken = taken || a.gpu == gpu;
    if (!taken) return gpu;
  }
  return 0;
}

bool LocalExecutor::poll(QueueRun& queue) {
  for (auto it = active_.begin(); it != active_.end();) {
    if (const auto code = it->child.poll()) {
      queue.recordExit(it->trial, *code);
      it = active_.erase(it);
    } else {
      ++it;
    }
  }
  return true;  // a child's end is known at once
}

void LocalExecutor::start(QueueRun& queue, const std::vector<TrialRecord>& trials) {
  const std::string& folder = queue.folder();
  const std::string& name = queue.name();
  for (const TrialRecord& row : trials) {
    const std::vector<std::string> argv{queue.options.program,
                                        "experiment",
                                        "trial",
                                        queue.plan.experiment.file,
                                        "--trial",
                                        std::to_string(row.trial + 1),
                                        "--threads",
                                        std::to_string(slots_.threads)};
    queue.ledger.setStatus(name, row.trial, TrialStatus::Running);
    const int64_t gpu = gpus_ > 0 ? freeGpu() : -1;
    std::vector<std::string> environment;
    if (gpu >= 0) environment.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(gpu));
    try {
      active_.push_back({ChildHandle::start(
                             argv, ExperimentPaths::trialLog(folder, name, row.trial), environment),
                         row.trial, gpu});
    } catch (const std::exception& error) {
      queue.ledger.setStatus(name, row.trial, TrialStatus::Failed, error.what());
      queue.log(describeTrial(row) + " could not start: " + error.what());
      continue;
    }
    queue.log(describeTrial(row) + " started" +
              (row.budget > 0 ? " (to step " + std::to_string(row.budget) + ")" : "") +
              (gpu >= 0 ? " on GPU " + std::to_string(gpu) : ""));
  }
}

void LocalExecutor::stopAll(QueueRun& queue) {
  queue.log("stopping: each running trial saves a checkpoint first");
  for (const ActiveTrial& a : active_) a.child.signal(SIGTERM);
}

}  // namespace mrnn::engine
