#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace mrnn::engine {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file is not a database this workbench can read (damaged, or not SQLite at all): left as
// it is; setAsideRunDatabase moves it out of the way, and recoverRuns brings its runs back from
// their checkpoints.
class StoreDamagedError : public StoreError {
 public:
  using StoreError::StoreError;
};

// Another connection (a database browser mid-edit, a sqlite3 shell in a transaction) held the
// database locked for longer than the store waits: nothing was written, and the same write
// can be made again later.
class StoreBusyError : public StoreError {
 public:
  using StoreError::StoreError;
};

// Interrupted is never stored: RunCatalogue reads a Running or Paused run whose writer's
// lock is free (its process died: kill -9, a crash, a full disk) as Interrupted.
enum class RunStatus { Running, Paused, Stopped, Finished, Failed, Interrupted };
std::string runStatusName(RunStatus status);
std::optional<RunStatus> runStatusFromName(const std::string& name);

struct RunRecord {
  int64_t id = 0;
  std::string name;
  std::string modelType;  // e.g. "mlstm" or "mlstm x2" (the layer types, summarised)
  int64_t parameters = 0;
  std::string configYaml;  // the whole project as it was when the run started
  std::string startedAt;   // ISO 8601, UTC
  std::string endedAt;     // empty while running
  RunStatus status = RunStatus::Running;
  std::string reason;  // why it failed or stopped, in words
  double durationSeconds = 0.0;
  std::optional<double> bestValid;   // best validation loss, bits per symbol
  std::optional<double> testResult;  // test loss, bits per symbol
  int64_t steps = 0;
  std::string note;  // the researcher's words on the run; empty when none
  // A long-range problem's share of test sequences got wrong (its last test/error_rate point);
  // read from the metrics, never written with the run.
  std::optional<double> testErrorRate;
};

// One point of a metric time series ("train/loss", "valid/bpc", "lr", "grad_norm", ...).
struct MetricPoint {
  std::string name;
  int64_t step = 0;
  double epoch = 0.0;
  double wallSeconds = 0.0;
  double value = 0.0;
};

// One metric's size and latest point (by step), without loading the series.
struct MetricSummary {
  std::string name;
  int64_t points = 0;
  int64_t lastStep = 0;
  double lastValue = 0.0;
};

struct CheckpointRecord {
  std::string kind;  // "latest" or "best"
  std::string path;  // relative to the project folder
  int64_t step = 0;
  std::optional<double> validLoss;
  std::string savedAt;
};

// Where a run copied in by RunStore::importRun came from.
struct RunOrigin {
  std::string project;  // the source database's project id
  int64_t run = 0;      // the run's id there
  std::string folder;   // the source's project folder: relative to this one when inside it
};

// The project's run database (runs.sqlite in the project folder): runs, their configs,
// metric time series and checkpoints. WAL mode, so the GUI reads while the engine writes;
// every write is a transaction, so a killed process leaves it consistent. Not thread-safe:
// one RunStore per thread (SQLite itself serialises the connections).
class RunStore {
 public:
  // The schema this build writes (PRAGMA user_version); a newer database is refused.
  // 2 added the project's identity (stamped into its checkpoints).
  static constexpr int kSchemaVersion = 2;

  enum class Access { ReadWrite, ReadOnly };

  // ReadWrite opens or creates the database, creating or upgrading the schema. ReadOnly
  // never creates, upgrades or writes, so a read-only project folder (or file) can be read;
  // writes then throw. Throws StoreError naming the path.
  explicit RunStore(const std::string& path, Access access = Access::ReadWrite);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const std::string& path() const { return path_; }
  // How long a write waits for another connection's lock before StoreBusyError (5 s when
  // opened).
  void setBusyWait(int milliseconds);
  bool readOnly() const { return access_ == Access::ReadOnly; }
  // A random id made with the database: checkpoints carry it, so a run is never continued
  // from another project's file. Empty in a version-1 database opened read-only.
  std::string projectId() const;

  // Writes throw StoreError; those naming a run throw "no run <id>" when it does not exist.
  // createRun returns the new id (run.id is ignored; ids are never reused); an empty
  // startedAt becomes now.
  int64_t createRun(const RunRecord& run);
  void appendMetrics(int64_t runId, const std::vector<MetricPoint>& points);  // one transaction
  // As appendMetrics, less the points whose name and step the run has already: a file of
  // points written again after a crash (between writing them and removing it) adds none twice.
  void appendMissingMetrics(int64_t runId, const std::vector<MetricPoint>& points);
  void recordCheckpoint(int64_t runId, const CheckpointRecord& checkpoint);  // replaces same kind
  void updateProgress(int64_t runId, int64_t steps, double durationSeconds);
  // Stopped/Finished/Failed set endedAt to now (kept if the run had already ended);
  // Running/Paused clear it (a resumed run has not ended). Interrupted is refused.
  void setStatus(int64_t runId, RunStatus status, const std::string& reason = "");
  void setBestValid(int64_t runId, double value);
  void setTestResult(int64_t runId, double value);
  void clearTestResult(int64_t runId);  // a resumed run's old figure no longer describes it
  // A resumed run given a new length (or moved to another device) records what it trains with.
  void setConfig(int64_t runId, const std::string& configYaml);
  // The researcher's name and note for a run (the Runs table, `mrnn runs rename|note`). A name
  // cannot be empty; an empty note removes it. Notes live beside the run tables, made by the
  // first note, so the schema version stays.
  void renameRun(int64_t runId, const std::string& name);
  void setNote(int64_t runId, const std::string& note);

  // Reads: unknown ids give nullopt or empty lists. Runs in id order (oldest first); a
  // named metric in step order, all metrics by name then step; checkpoints by kind.
  // A NaN metric value is stored as NULL and reads back as NaN.
  std::vector<RunRecord> listRuns() const;
  std::optional<RunRecord> run(int64_t runId) const;
  std::vector<MetricPoint> metrics(int64_t runId, const std::string& name = "") const;
  std::vector<std::string> metricNames(int64_t runId) const;
  std::vector<MetricSummary> metricSummaries(int64_t runId) const;  // by name
  std::vector<CheckpointRecord> checkpoints(int64_t runId) const;
  void deleteRun(int64_t runId);  // with its metrics and checkpoints (and its origin)
  // Drops the run's metric points after `step`: a run resumed from an older checkpoint
  // records those steps again, and each step must appear once.
  void deleteMetricsAfter(int64_t runId, int64_t step);

  // Copies run `sourceRunId` of another project's database into this one in one transaction:
  // its record, every metric point and its checkpoint records, their paths re-based onto this
  // folder (the files stay where they are). The experiment queue's Slurm trials train in
  // private run folders that only their job writes; the submit host collects them here
  // (docs/distributed.md). Importing the same source run again replaces the earlier copy and
  // keeps its id, so a killed import is simply done again. `configYaml`, when given, is stored
  // instead of the source's. Returns the run's id here; throws StoreError naming a missing run,
  // or a source that is this database.
  int64_t importRun(const RunStore& source, int64_t sourceRunId,
                    const std::optional<std::string>& configYaml = std::nullopt);
  // Where an imported run came from; nullopt for a run trained into this database.
  std::optional<RunOrigin> origin(int64_t runId) const;

  // Records, in one transaction, a run whose checkpoint files outlived the database that
  // recorded it: `run` under its own id (its checkpoint folder's), with its checkpoints and
  // whatever metric points were kept beside them. `runProject` is the project id its
  // checkpoints carry: when it is not this database's, this database answers to it from then
  // on (ownsProjectId), so that the run resumes here. Throws StoreError when the id is taken.
  void recoverRun(const RunRecord& run, const std::vector<CheckpointRecord>& checkpoints,
                  const std::vector<MetricPoint>& points, const std::string& runProject);
  // Whether checkpoints carrying project id `id` are this project's: its own id, or one its
  // runs were recovered under.
  bool ownsProjectId(const std::string& id) const;

  // Text exports for `mrnn runs export`: every run (or one run's metrics) as CSV or JSON.
  // CSV: a header row, RFC 4180 quoting, absent values empty. JSON: an array of objects,
  // absent (and non-finite) values null; runs' JSON also carries config_yaml. Numbers use
  // the shortest text that reads back exactly.
  std::string exportRunsCsv() const;
  std::string exportRunsJson() const;
  // The same for a given list (RunCatalogue's, with live statuses).
  static std::string runsCsv(const std::vector<RunRecord>& runs);
  static std::string runsJson(const std::vector<RunRecord>& runs);
  std::string exportMetricsCsv(int64_t runId) const;
  std::string exportMetricsJson(int64_t runId) const;

  // SQLite's PRAGMA integrity_check: "ok" when the file is sound, its findings otherwise.
  std::string integrityCheck() const;

 private:
  void open(int flags, const std::string& name);
  // After a failed first open in ReadWrite: the empty file (and companions) it made goes.
  void removeUnbegun() const;
  void configure();
  // Fills in the runs' notes (none in a database never given one).
  void attachNotes(std::vector<RunRecord>& runs) const;
  // A database read, never written, without this build's schema (0 bytes, or a stranger's):
  // refused in words here rather than "no such table" at the first query.
  void requireRunsTable() const;
  void createSchema(int fromVersion);

  std::string path_;
  Access access_ = Access::ReadWrite;
  sqlite3* db_ = nullptr;
};

}  // namespace mrnn::engine
