#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/run_lock.h"
#include "engine/store/run_store.h"

namespace mrnn::engine {

// A checkpoint file of a run that exists on disk.
struct RunCheckpoint {
  int64_t runId = 0;
  std::string kind;  // "best" or "latest"
  std::string path;  // absolute
  int64_t step = 0;  // 0 when the database has no record of the file
  std::optional<double> validLoss;
};

// Where a resume of a run starts: its latest checkpoint when that one is whole; else why not
// (missing, truncated, damaged), and its best checkpoint when that one is whole, which can be
// resumed from instead (the steps after it are trained again).
struct ResumePoint {
  int64_t runId = 0;
  std::string checkpoint;             // the whole latest checkpoint; empty when there is none
  std::string latestProblem;          // why the latest cannot be resumed from, in one sentence
  std::optional<RunCheckpoint> best;  // set only when the latest cannot be resumed from
};

// The one way anything finds or changes a project's runs: the trainer, `mrnn`, the GUI and
// the experiment queue. It joins the run database (RunStore), the checkpoint folders
// (RunPaths) and the writers' locks (RunLock), so that a run's status, its checkpoints and
// who writes it are read the same way everywhere.
class RunCatalogue {
 public:
  using Access = RunStore::Access;

  // ReadOnly never creates or writes anything (read-only folders work) and throws
  // StoreError ("no runs yet in ...") when the project has no run database; ReadWrite
  // creates it.
  explicit RunCatalogue(const std::string& projectFolder, Access access = Access::ReadOnly);
  // Whether the project has a run database (a project never trained has none).
  static bool exists(const std::string& projectFolder);

  const std::string& folder() const { return folder_; }
  RunStore& store() { return *store_; }
  const RunStore& store() const { return *store_; }
  std::string projectId() const { return store_->projectId(); }
  // Whether a checkpoint carrying project id `id` is this project's (RunStore::ownsProjectId).
  bool ownsProjectId(const std::string& id) const { return store_->ownsProjectId(id); }

  // Runs oldest first, with their status as it is: a Running or Paused run that no process
  // holds (its writer died) reads Interrupted, and can be resumed.
  std::vector<RunRecord> runs() const;
  std::optional<RunRecord> run(int64_t runId) const;
  // The process writing the run now, if any.
  std::optional<LockHolder> writer(int64_t runId) const;

  // Makes this process the run's one writer until the lock is released or the process
  // ends; throws RunBusyError naming the holder. Then removes the temporary files a killed
  // writer left in the run's folder (only the writer may).
  RunLock lockForWriting(int64_t runId) const;

  // Removes the run from the database and, from its checkpoint folder, the files the workbench
  // wrote there (RunPaths::isRunFile), then the folder once empty; refuses (throws
  // RunBusyError) while a process writes it. Returns the names of what the folder still holds
  // (files of the user's, kept with it), sorted; empty when it went. Throws std::runtime_error
  // naming a file that could not be removed.
  std::vector<std::string> deleteRun(int64_t runId);
  // The same removal from a run's checkpoint folder, for a run whose making failed.
  static std::vector<std::string> removeRunFiles(const std::string& runFolder);

  // The run's checkpoint files that exist, best first.
  std::vector<RunCheckpoint> checkpoints(int64_t runId) const;
  // Every run's, newest run first.
  std::vector<RunCheckpoint> allCheckpoints() const;
  // The checkpoint to evaluate or analyse: the best, else the latest, of run `runId`, or of
  // the newest run that has one when runId is 0. Throws std::runtime_error naming what is
  // missing.
  std::string checkpointToAnalyse(int64_t runId = 0) const;
  // When `checkpoint`, one of a run's, cannot be read: the words that name the run's other
  // checkpoint when that one is whole ("; its latest checkpoint (step 30) is whole: <path>"),
  // for the refusal to end with; "" when there is none.
  std::string wholeAlternativeTo(const std::string& checkpoint) const;
  // The same as a record: the run's other checkpoint, read whole; nullopt when there is none.
  std::optional<RunCheckpoint> wholeAlternative(const std::string& checkpoint) const;
  // Where a resume of run `runId` (with 0, the newest run that did not finish) starts, each
  // checkpoint read whole to find damage before training starts; throws std::runtime_error
  // when there is no such run.
  ResumePoint resumePoint(int64_t runId = 0) const;
  // The checkpoint `resume` continues run `runId` from (its latest, whole), or, with 0, the
  // newest run that did not finish; throws std::runtime_error naming what is missing or
  // damaged, and the best checkpoint that can be resumed instead.
  std::string checkpointToResume(int64_t runId = 0) const;

 private:
  RunRecord withLiveStatus(RunRecord run) const;

  std::string folder_;
  std::unique_ptr<RunStore> store_;
};

}  // namespace mrnn::engine
