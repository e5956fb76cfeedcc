#include "experiment_test_store.h"

#include "engine/experiment/experiment_queue.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_store.h"

namespace mrnn::test {

void fillStore(const engine::ExperimentPlan& plan, const std::set<int64_t>& skip) {
  engine::RunStore store(plan.folder() + "/runs.sqlite");
  engine::ExperimentLedger ledger(plan.folder());
  for (const engine::TrialPlan& trial : plan.trials) {
    engine::TrialRecord record = engine::queuedTrialRecord(plan, trial);
    if (skip.count(trial.index) > 0) {
      ledger.put(record);
      continue;
    }
    engine::RunRecord run;
    run.name = trial.project.name;
    run.modelType = trial.settings[0].value;
    run.parameters = trial.parameters;
    run.configYaml = trial.config;
    const int64_t id = store.createRun(run);
    const double valid = 2.0 + 0.1 * static_cast<double>(trial.configuration) +
                         0.05 * static_cast<double>(trial.seed);
    store.updateProgress(id, 40, 1.0);
    store.setBestValid(id, valid);
    store.setTestResult(id, valid + 0.2);
    store.setStatus(id, engine::RunStatus::Finished);
    record.status = engine::TrialStatus::Done;
    record.runId = id;
    ledger.put(record);
  }
}

}  // namespace mrnn::test
