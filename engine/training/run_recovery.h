#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/run_store.h"

namespace mrnn::engine {

class JobContext;

// A run brought back from its checkpoint files.
struct RecoveredRun {
  int64_t id = 0;
  std::string name;
  int64_t steps = 0;
  std::optional<double> bestValid;  // bits per symbol
  int64_t metricPoints = 0;         // kept beside its checkpoints (unwritten-metrics.tsv)
  // Its other checkpoint file, when that one could not be read (left as it is, unrecorded).
  std::string unreadable;
};

struct RunRecovery {
  std::vector<RecoveredRun> recovered;
  // A run folder left as it was, in one sentence each: its files unreadable, another run's
  // state in it, a process writing it now.
  std::vector<std::string> skipped;
};

// The ids of the runs whose folders under <project>/checkpoints hold a checkpoint file but
// which the run database does not record (all of them when there is no database): a database
// moved aside, deleted, restored from an older copy or set aside as damaged took their
// records. Reads only folder names and the database's ids. Throws StoreError (StoreDamagedError
// for a damaged one) when the database cannot be read.
std::vector<int64_t> unrecordedRuns(const std::string& projectFolder);
// The same for a caller that has read the database's runs already (a listing): the folder
// names alone are read.
std::vector<int64_t> unrecordedRuns(const std::string& projectFolder,
                                    const std::vector<RunRecord>& recorded);

// Records each unrecorded run from its checkpoints (creating the database when there is none):
// the project, model and vocabulary it was trained with, its step, training time and best
// validation loss, both checkpoint files, and the metric points kept beside them. Its curves
// before that were in the lost database: the run's reason says so. Finished when it reached its
// project's max_steps, else Stopped; either resumes from its latest checkpoint. Nothing in the
// run folders is changed.
// With `job`, reports before each run and stops there once cancelled (JobCancelledError): each
// run is recorded in one transaction, so what was recovered stays and the rest can follow.
RunRecovery recoverRuns(const std::string& projectFolder, JobContext* job = nullptr);

// Moves a project's run database that cannot be read (with its -wal and -shm files) to
// runs.sqlite.damaged-<UTC time>, never over an existing file, for SQLite's own tools to mend;
// returns its new path. The next run, or recoverRuns, begins a new one. Throws
// std::runtime_error naming the file when there is none or it cannot be moved.
std::string setAsideRunDatabase(const std::string& projectFolder);

}  // namespace mrnn::engine
