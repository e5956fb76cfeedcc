#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/experiment/experiment_spec.h"
#include "engine/experiment/trial_executor.h"

namespace mrnn::engine {

// The executors an experiment's queue can train its trials with, one per ExecutorKind: the one
// place that knows them all, so that `mrnn experiment` picks one by its kind and never names
// one itself. A new executor registers here with one line.

// The executor of `kind` for the experiment `experiment` of the project in `projectFolder`.
std::unique_ptr<TrialExecutor> makeTrialExecutor(ExecutorKind kind,
                                                 const std::string& projectFolder,
                                                 const std::string& experiment);

// One of each kind, for `status` and `stop`: trials may have been left with any of them.
std::vector<std::unique_ptr<TrialExecutor>> allTrialExecutors(const std::string& projectFolder,
                                                              const std::string& experiment);

}  // namespace mrnn::engine
