#pragma once

#include <QString>

#include <optional>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_lock.h"
#include "engine/store/run_store.h"

namespace mrnn::widgets {

// Where an experiment stands, read in one go from what the queue leaves behind: its lock
// (is a queue running, is it paused), the ledger's trials (read-only) and the runs they
// trained. The panel reads one every poll and redraws only when its signature changes.
struct ExperimentSnapshot {
  std::optional<engine::LockHolder> queue;  // the queue process, when one runs
  bool queueLocal = true;                   // on this machine (only then can it be signalled)
  bool paused = false;
  std::vector<engine::RunRecord> runs;
  // Every ledger row of the experiment, with its run and ETA.
  std::vector<engine::TrialProgress> progress;
  // Per progress row: whether the trial ran with the plan's configuration. A row that ran
  // with another (the file changed since) is not counted in the results; Launch offers to
  // plan afresh.
  std::vector<bool> current;
  int64_t changedTrials = 0;  // rows that ran (or run) with another configuration
  // The configurations over the trials that are current.
  std::vector<engine::ConfigurationResult> results;
  QString error;  // the database could not be read, in words

  int64_t count(engine::TrialStatus status) const;
  int64_t interrupted() const;
  // Changes whenever anything shown changes (statuses, steps, figures, the queue).
  QString signature() const;
};

// Reads the snapshot of `plan`'s experiment; never throws (error says what failed).
ExperimentSnapshot readExperimentSnapshot(const engine::ExperimentPlan& plan);

}  // namespace mrnn::widgets
