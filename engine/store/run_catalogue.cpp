#include "engine/store/run_catalogue.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/io/checkpoint_envelope.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_paths.h"

namespace mrnn::engine {
namespace fs = std::filesystem;

namespace {

bool isFile(const std::string& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

}  // namespace

RunCatalogue::RunCatalogue(const std::string& projectFolder, Access access)
    : folder_(projectFolder.empty() ? std::string(".") : projectFolder) {
  if (access == Access::ReadWrite) {
    fs::create_directories(folder_);
  } else if (std::error_code error; !fs::exists(RunPaths::database(folder_), error)) {
    throw StoreError("no runs yet in " + folder_ + "; train the project first");
  }
  store_ = std::make_unique<RunStore>(RunPaths::database(folder_), access);
}

bool RunCatalogue::exists(const std::string& projectFolder) {
  return isFile(RunPaths::database(projectFolder.empty() ? std::string(".") : projectFolder));
}

RunRecord RunCatalogue::withLiveStatus(RunRecord run) const {
  if ((run.status == RunStatus::Running || run.status == RunStatus::Paused) && !writer(run.id)) {
    run.status = RunStatus::Interrupted;
    if (run.reason.empty()) {
      run.reason =
          "its process ended without closing the run (killed, crashed or out of "
          "disk); resume continues from the latest checkpoint";
    }
  }
  return run;
}

std::vector<RunRecord> RunCatalogue::runs() const {
  std::vector<RunRecord> runs = store_->listRuns();
  for (auto& run : runs) run = withLiveStatus(std::move(run));
  return runs;
}

std::optional<RunRecord> RunCatalogue::run(int64_t runId) const {
  auto run = store_->run(runId);
  if (run) run = withLiveStatus(std::move(*run));
  return run;
}

std::optional<LockHolder> RunCatalogue::writer(int64_t runId) const {
  return RunLock::holder(RunPaths::writerLock(folder_, runId));
}

RunLock RunCatalogue::lockForWriting(int64_t runId) const {
  RunLock lock =
      RunLock::acquire(RunPaths::writerLock(folder_, runId), "run " + std::to_string(runId));
  // Atomic writes leave "<name>.tmp-XXXXXX" behind only when their process died mid-write.
  std::error_code error;
  for (fs::directory_iterator entry(RunPaths::checkpointFolder(folder_, runId), error), end;
       !error && entry != end; entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (RunPaths::isLeftoverTemporary(name)) fs::remove(entry->path(), error);
  }
  return lock;
}

std::vector<std::string> RunCatalogue::deleteRun(int64_t runId) {
  // Holding the lock while deleting keeps a resume from starting on a half-deleted run.
  RunLock lock = lockForWriting(runId);
  store_->deleteRun(runId);
  // A trial of an experiment whose run this was has no result now: it waits to train again.
  const bool trial =
      !ExperimentLedger(folder_, ExperimentLedger::Access::ReadOnly).trialsOfRun(runId).empty();
  if (trial)
    ExperimentLedger(folder_).forgetRun(runId, "its run " + std::to_string(runId) + " was deleted");
  lock.release();
  return removeRunFiles(RunPaths::checkpointFolder(folder_, runId));
}

std::vector<std::string> RunCatalogue::removeRunFiles(const std::string& runFolder) {
  // Only what the workbench wrote goes: a file of the user's (notes, a copied sample) stays
  // with its folder. A link at the folder's name (checkpoints kept on another disk) stays too;
  // the run's files in the folder it names go.
  std::vector<std::string> kept;
  std::error_code error;
  if (!fs::is_directory(runFolder, error)) return kept;
  const bool link = fs::is_symlink(runFolder, error);
  for (fs::directory_iterator entry(runFolder, error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    std::error_code kind;
    if (RunPaths::isRunFile(name) && entry->symlink_status(kind).type() == fs::file_type::regular) {
      std::error_code removed;
      if (!fs::remove(entry->path(), removed) && removed) {
        throw std::runtime_error(entry->path().string() +
                                 " could not be removed: " + removed.message());
      }
    } else {
      kept.push_back(name);
    }
  }
  if (error) throw std::runtime_error(runFolder + " could not be read: " + error.message());
  std::sort(kept.begin(), kept.end());
  if (kept.empty() && !link) fs::remove(runFolder, error);
  return kept;
}

std::vector<RunCheckpoint> RunCatalogue::checkpoints(int64_t runId) const {
  std::vector<RunCheckpoint> found;
  const auto records = store_->checkpoints(runId);
  for (const std::string kind : {"best", "latest"}) {
    RunCheckpoint checkpoint;
    checkpoint.runId = runId;
    checkpoint.kind = kind;
    checkpoint.path =
        kind == "best" ? RunPaths::best(folder_, runId) : RunPaths::latest(folder_, runId);
    for (const auto& record : records) {
      if (record.kind != kind) continue;
      // Recorded paths are relative to the project folder (older runs: absolute).
      const fs::path recorded(record.path);
      checkpoint.path = recorded.is_absolute() ? record.path : folder_ + "/" + record.path;
      checkpoint.step = record.step;
      checkpoint.validLoss = record.validLoss;
    }
    if (!isFile(checkpoint.path)) continue;
    std::error_code error;
    const fs::path absolute = fs::absolute(checkpoint.path, error).lexically_normal();
    if (!error) checkpoint.path = absolute.string();
    found.push_back(std::move(checkpoint));
  }
  return found;
}

std::vector<RunCheckpoint> RunCatalogue::allCheckpoints() const {
  std::vector<RunCheckpoint> all;
  const auto runs = store_->listRuns();
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
    for (auto& checkpoint : checkpoints(run->id)) all.push_back(std::move(checkpoint));
  }
  return all;
}

std::string RunCatalogue::checkpointToAnalyse(int64_t runId) const {
  if (runId == 0) {
    // The newest run that still has a checkpoint (a run may have been cleaned up by hand).
    const auto runs = store_->listRuns();
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
      const auto found = checkpoints(run->id);
      if (!found.empty()) return found.front().path;
    }
    throw std::runtime_error("no run in " + folder_ + " has a checkpoint; train first");
  }
  if (!store_->run(runId)) {
    throw std::runtime_error("there is no run " + std::to_string(runId) + " in " + store_->path());
  }
  const auto found = checkpoints(runId);
  if (found.empty()) {
    throw std::runtime_error("run " + std::to_string(runId) + " has no checkpoint in " +
                             RunPaths::checkpointFolder(folder_, runId));
  }
  return found.front().path;
}

std::optional<RunCheckpoint> RunCatalogue::wholeAlternative(const std::string& checkpoint) const {
  for (const RunCheckpoint& mine : allCheckpoints()) {
    if (mine.path != checkpoint) continue;
    for (const RunCheckpoint& other : checkpoints(mine.runId)) {
      if (other.path != checkpoint && checkpointFileProblem(other.path).empty()) return other;
    }
  }
  return std::nullopt;
}

std::string RunCatalogue::wholeAlternativeTo(const std::string& checkpoint) const {
  const std::optional<RunCheckpoint> other = wholeAlternative(checkpoint);
  if (!other) return "";
  return "; its " + other->kind + " checkpoint (step " + std::to_string(other->step) +
         ") is whole: " + other->path;
}

ResumePoint RunCatalogue::resumePoint(int64_t runId) const {
  if (runId == 0) {
    for (const auto& run : store_->listRuns()) {
      if (run.status != RunStatus::Finished) runId = std::max(runId, run.id);
    }
    if (runId == 0) {
      std::error_code error;
      fs::path where = fs::absolute(folder_, error).lexically_normal();
      if (!where.has_filename()) where = where.parent_path();  // "." gives "/p/"
      throw std::runtime_error("no unfinished run to resume in " +
                               (error ? folder_ : where.string()) +
                               " (every run there finished: name one to train it further)");
    }
  } else if (!store_->run(runId)) {
    throw std::runtime_error("there is no run " + std::to_string(runId) + " in " + store_->path());
  }
  ResumePoint point;
  point.runId = runId;
  std::optional<RunCheckpoint> best;
  for (const auto& checkpoint : checkpoints(runId)) {
    if (checkpoint.kind == "best") best = checkpoint;
    if (checkpoint.kind == "latest") {
      point.latestProblem = checkpointFileProblem(checkpoint.path);
      if (point.latestProblem.empty()) point.checkpoint = checkpoint.path;
    }
  }
  if (!point.checkpoint.empty()) return point;
  if (point.latestProblem.empty()) {
    // A run that failed writing its first latest checkpoint (a full disk) may still have its
    // best, which loses only the steps since then.
    point.latestProblem = "run " + std::to_string(runId) + " has no latest checkpoint in " +
                          RunPaths::checkpointFolder(folder_, runId);
  }
  if (best && checkpointFileProblem(best->path).empty()) point.best = best;
  return point;
}

std::string RunCatalogue::checkpointToResume(int64_t runId) const {
  const ResumePoint point = resumePoint(runId);
  if (!point.checkpoint.empty()) return point.checkpoint;
  std::string message = point.latestProblem + "; run " + std::to_string(point.runId) +
                        " cannot be resumed from its latest checkpoint";
  if (point.best) {
    message += ", but its best checkpoint (step " + std::to_string(point.best->step) +
               ") is whole and can be resumed instead, training the steps after it again: " +
               point.best->path;
  }
  throw std::runtime_error(message);
}

}  // namespace mrnn::engine
