#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/store/experiment_ledger.h"

namespace mrnn::engine {

class RunCatalogue;

// One run of an experiment's queue as its executor (TrialExecutor) sees it: the plan, the
// ledger and the run store that only the queue process writes, and what every executor
// records a trial's end against. runExperimentQueue owns it for as long as it holds the lock.
struct QueueRun {
  const ExperimentPlan& plan;
  const QueueOptions& options;
  ExperimentLedger& ledger;
  RunCatalogue& catalogue;
  std::function<void(const std::string&)> log;  // one line per event; never empty
  // The queue asked its trials to stop: they end queued again, not failed.
  bool stopping = false;
  // Trials ended by a signal the queue did not send: the first such end queues a trial again,
  // the second fails it (recordTrialExit).
  std::map<int64_t, int> kills;

  const std::string& folder() const { return plan.folder(); }
  const std::string& name() const { return plan.experiment.name; }

  // Trial `index` ended with exit `code`: done, queued again or failed, the same way whatever
  // trained it, so that both executors give the same ledger.
  void recordExit(int64_t index, int code) {
    recordTrialExit(plan, ledger, catalogue, index, code, stopping, kills, log);
  }
};

}  // namespace mrnn::engine
