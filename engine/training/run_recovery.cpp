#include "engine/training/run_recovery.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "engine/config/model_names.h"
#include "engine/config/parameter_count.h"
#include "engine/config/project_file.h"
#include "engine/io/atomic_file.h"
#include "engine/runtime/job_context.h"
#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/text_format.h"
#include "engine/store/unwritten_metrics.h"
#include "engine/training/checkpoint.h"

namespace mrnn::engine {
namespace fs = std::filesystem;
namespace {

// A run folder's checkpoint, read whole (weights too: a file that only looks whole is not
// recorded as one to resume from).
struct ReadCheckpoint {
  std::string kind;  // "latest" or "best"
  std::string path;
  TrainingSnapshot snapshot;
  std::string savedAt;  // the file's modification time
};

std::string savedAtOf(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return utcTimestamp();
  return utcTimestampOf(status.st_mtime);
}

// The run folders' ids with a checkpoint file in them, ascending.
std::vector<int64_t> runFoldersWithCheckpoints(const std::string& projectFolder) {
  std::vector<int64_t> ids;
  std::error_code error;
  for (fs::directory_iterator entry(RunPaths::checkpoints(projectFolder), error), end;
       !error && entry != end; entry.increment(error)) {
    const int64_t id = RunPaths::idOfFolderName(entry->path().filename().string());
    if (id <= 0 || !entry->is_directory(error)) continue;
    for (const std::string& file :
         {RunPaths::latest(projectFolder, id), RunPaths::best(projectFolder, id)}) {
      if (fs::is_regular_file(file, error)) {
        ids.push_back(id);
        break;
      }
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Run `id`'s record from its checkpoints (`files` whole, latest first when it is).
RunRecord recordOf(int64_t id, const std::vector<ReadCheckpoint>& files) {
  const ReadCheckpoint& newest = files.front();
  const TrainingSnapshot& snapshot = newest.snapshot;
  const Project project = parseProject(snapshot.projectYaml, newest.path, false);
  RunRecord run;
  run.id = id;
  run.name = snapshot.runName.empty() ? defaultRunName(project.model) : snapshot.runName;
  run.modelType = modelTypeSummary(project.model);
  run.parameters =
      summarizeModel(project.model, Vocabulary::deserialize(snapshot.vocabulary).size())
          .totalParameters;
  run.configYaml = snapshot.projectYaml;
  run.startedAt = newest.savedAt;  // no earlier time is known
  run.endedAt = newest.savedAt;
  // A run at its project's length ended there; any other stopped before it.
  const bool atLength = project.training.maxSteps > 0 && snapshot.step >= project.training.maxSteps;
  run.status = atLength ? RunStatus::Finished : RunStatus::Stopped;
  run.reason =
      "recovered from its checkpoints at step " + std::to_string(snapshot.step) +
      ": the run database that recorded it was lost, and its curves and test figure with it";
  // A model imported from a file took no step and has no training state: it stays an import,
  // which nothing resumes (a file from before imports named their source says so).
  if (snapshot.step == 0 && snapshot.batcherState.empty()) {
    run.status = RunStatus::Finished;
    run.reason = std::string(kImportedReasonPrefix) + (snapshot.importedFrom.empty()
                                                           ? "a file the lost run database named"
                                                           : snapshot.importedFrom);
  }
  run.durationSeconds = snapshot.wallSeconds;
  run.steps = snapshot.step;
  double best = 0.0;
  for (const ReadCheckpoint& file : files) {
    if (file.snapshot.bestValid > 0 && (best == 0.0 || file.snapshot.bestValid < best)) {
      best = file.snapshot.bestValid;
    }
  }
  if (best > 0) run.bestValid = best;
  return run;
}

// The run's whole checkpoints, latest first; a file that does not read goes in `problems`.
std::vector<ReadCheckpoint> readCheckpoints(const std::string& projectFolder, int64_t id,
                                            std::vector<std::string>& problems) {
  std::vector<ReadCheckpoint> files;
  for (const char* kind : {"latest", "best"}) {
    const std::string path = std::string(kind) == "latest" ? RunPaths::latest(projectFolder, id)
                                                           : RunPaths::best(projectFolder, id);
    std::error_code error;
    if (!fs::exists(path, error)) continue;
    try {
      Checkpoint checkpoint = Checkpoint::open(path);
      checkpoint.vocabulary();  // throws when it cannot be read
      files.push_back({kind, path, checkpoint.snapshot(), savedAtOf(path)});
    } catch (const std::exception& e) {
      problems.push_back(e.what());
    }
  }
  return files;
}

// The metric points a stop kept beside the run's checkpoints; none when they do not read.
std::vector<MetricPoint> keptMetrics(const std::string& projectFolder, int64_t id) {
  const std::string file = RunPaths::unwrittenMetrics(projectFolder, id);
  std::error_code error;
  if (!fs::exists(file, error)) return {};
  try {
    return parseUnwrittenMetrics(readWholeFile(file), file);
  } catch (const std::exception&) {
    return {};  // the checkpoints alone are still the run
  }
}

std::string runText(int64_t id) {
  return "run " + std::to_string(id);
}

// Renames `from` to `to`, refusing when `to` exists: a hard link and an unlink, or where the
// file system has no hard links, a rename that does not replace.
void moveWithoutReplacing(const std::string& from, const std::string& to) {
  int failure = 0;
  if (::link(from.c_str(), to.c_str()) == 0) {
    if (::unlink(from.c_str()) == 0) return;
    failure = errno;
    ::unlink(to.c_str());
  } else if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return;
    failure = errno;
  } else {
    failure = errno;
  }
  throw std::runtime_error("cannot move '" + from + "' to '" + to + "': " + std::strerror(failure));
}

}  // namespace

std::vector<int64_t> unrecordedRuns(const std::string& projectFolder) {
  if (!RunCatalogue::exists(projectFolder)) return runFoldersWithCheckpoints(projectFolder);
  return unrecordedRuns(projectFolder, RunCatalogue(projectFolder).store().listRuns());
}

std::vector<int64_t> unrecordedRuns(const std::string& projectFolder,
                                    const std::vector<RunRecord>& recorded) {
  std::set<int64_t> known;
  for (const RunRecord& run : recorded) known.insert(run.id);
  std::vector<int64_t> ids = runFoldersWithCheckpoints(projectFolder);
  ids.erase(
      std::remove_if(ids.begin(), ids.end(), [&known](int64_t id) { return known.count(id) > 0; }),
      ids.end());
  return ids;
}

RunRecovery recoverRuns(const std::string& projectFolder, JobContext* job) {
  RunRecovery result;
  const std::vector<int64_t> ids = unrecordedRuns(projectFolder);
  if (ids.empty()) return result;
  RunCatalogue catalogue(projectFolder, RunCatalogue::Access::ReadWrite);
  for (size_t i = 0; i < ids.size(); ++i) {
    const int64_t id = ids[i];
    if (job) {
      job->report(static_cast<double>(i) / static_cast<double>(ids.size()),
                  "run " + std::to_string(id) + " (" + std::to_string(i + 1) + " of " +
                      std::to_string(ids.size()) + ")");
    }
    const std::string folder = RunPaths::checkpointFolder(projectFolder, id);
    if (const auto holder = catalogue.writer(id)) {
      result.skipped.push_back(runText(id) + " (" + folder + ") is being written by " +
                               holder->describe() + "; recover it once that ends");
      continue;
    }
    std::vector<std::string> problems;
    std::vector<ReadCheckpoint> files = readCheckpoints(projectFolder, id, problems);
    const auto foreign = std::find_if(files.begin(), files.end(), [id](const ReadCheckpoint& f) {
      return f.snapshot.runId != 0 && f.snapshot.runId != id;
    });
    if (foreign != files.end()) {
      result.skipped.push_back(runText(id) + "'s folder holds run " +
                               std::to_string(foreign->snapshot.runId) + "'s checkpoint (" +
                               foreign->path + "); left as it is");
      continue;
    }
    if (files.empty()) {
      result.skipped.push_back(runText(id) + ": no checkpoint in " + folder +
                               " can be read: " + problems.front());
      continue;
    }
    try {
      const RunRecord run = recordOf(id, files);
      std::vector<CheckpointRecord> records;
      for (const ReadCheckpoint& file : files) {
        CheckpointRecord record;
        record.kind = file.kind;
        record.path = "checkpoints/run-" + std::to_string(id) + "/" + file.kind + ".pt";
        record.step = file.snapshot.step;
        if (file.snapshot.bestValid > 0) record.validLoss = file.snapshot.bestValid;
        record.savedAt = file.savedAt;
        records.push_back(record);
      }
      const std::vector<MetricPoint> points = keptMetrics(projectFolder, id);
      catalogue.store().recoverRun(run, records, points, files.front().snapshot.projectId);
      result.recovered.push_back({id, run.name, run.steps, run.bestValid,
                                  static_cast<int64_t>(points.size()),
                                  problems.empty() ? std::string() : problems.front()});
    } catch (const StoreError&) {
      throw;  // the database itself failed: the caller says so
    } catch (const std::exception& e) {
      result.skipped.push_back(runText(id) + ": its checkpoint " + files.front().path +
                               " does not describe a run: " + e.what());
    }
  }
  return result;
}

std::string setAsideRunDatabase(const std::string& projectFolder) {
  const std::string database = RunPaths::database(projectFolder);
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(database, error))) {
    throw std::runtime_error("'" + database + "' is not a run database file to set aside");
  }
  // "20261208T012549Z": no colons, which some file systems and tools refuse in a name.
  std::string stamp = utcTimestamp();
  stamp.erase(
      std::remove_if(stamp.begin(), stamp.end(), [](char c) { return c == ':' || c == '-'; }),
      stamp.end());
  std::string target;
  for (int attempt = 0; attempt < 100 && target.empty(); ++attempt) {
    const std::string candidate =
        database + ".damaged-" + stamp + (attempt == 0 ? "" : "-" + std::to_string(attempt));
    if (!fs::exists(fs::symlink_status(candidate, error)) &&
        !fs::exists(fs::symlink_status(candidate + "-wal", error))) {
      target = candidate;
    }
  }
  if (target.empty()) throw std::runtime_error("no free name beside '" + database + "'");
  // The write-ahead log first: SQLite finds it beside the main file by name, so the set-aside
  // copy keeps what was in it. A hard link and an unlink never replace a file of that name.
  for (const char* suffix : {"-wal", "-shm", ""}) {
    const std::string from = database + suffix;
    const std::string to = target + suffix;
    if (!fs::exists(fs::symlink_status(from, error))) continue;
    moveWithoutReplacing(from, to);
  }
  return target;
}

}  // namespace mrnn::engine
