#include "engine/experiment/trial_executors.h"

#include "engine/experiment/local_executor.h"
#include "engine/experiment/slurm_executor.h"

namespace mrnn::engine {

std::unique_ptr<TrialExecutor> makeTrialExecutor(ExecutorKind kind,
                                                 const std::string& projectFolder,
                                                 const std::string& experiment) {
  switch (kind) {
    case ExecutorKind::Local:
      return std::make_unique<LocalExecutor>();
    case ExecutorKind::Slurm:
      return std::make_unique<SlurmExecutor>(projectFolder, experiment);
  }
  return std::make_unique<LocalExecutor>();  // not reached: every kind is above
}

std::vector<std::unique_ptr<TrialExecutor>> allTrialExecutors(const std::string& projectFolder,
                                                              const std::string& experiment) {
  std::vector<std::unique_ptr<TrialExecutor>> executors;
  for (const ExecutorKind kind : executorKinds()) {
    executors.push_back(makeTrialExecutor(kind, projectFolder, experiment));
  }
  return executors;
}

}  // namespace mrnn::engine
