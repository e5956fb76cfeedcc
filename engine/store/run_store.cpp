#include "engine/store/run_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>

#include "engine/io/own_file.h"
#include "engine/store/database_owner.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_folder_ids.h"
#include "engine/store/run_rows.h"
#include "engine/store/sqlite_error.h"
#include "engine/store/sqlite_statement.h"
#include "engine/store/sqlite_transaction.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

// Version 2 (version 1 lacked `project`). AUTOINCREMENT keeps a deleted run's id from being handed
// out again (ids name checkpoint folders and appear in notes). Metrics carry an explicit id so that
// points at the same step keep their insertion order even through VACUUM. SQLite stores NaN as
// NULL, hence nullable metric numbers: a diverged run's NaN loss is logged, not refused.
constexpr const char* kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  model_type TEXT NOT NULL DEFAULT '',
  parameters INTEGER NOT NULL DEFAULT 0,
  config_yaml TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  ended_at TEXT,
  status TEXT NOT NULL
    CHECK (status IN ('running', 'paused', 'stopped', 'finished', 'failed')),
  reason TEXT NOT NULL DEFAULT '',
  duration_s REAL NOT NULL DEFAULT 0,
  best_valid REAL,
  test_result REAL,
  steps INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS metrics (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  step INTEGER NOT NULL,
  epoch REAL,
  wall_s REAL,
  value REAL
);
CREATE INDEX IF NOT EXISTS metrics_by_run_name_step ON metrics (run_id, name, step);
CREATE TABLE IF NOT EXISTS checkpoints (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,
  valid_loss REAL,
  saved_at TEXT NOT NULL,
  UNIQUE (run_id, kind)
);
CREATE TABLE IF NOT EXISTS project (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT OR IGNORE INTO project (key, value) VALUES ('id', lower(hex(randomblob(16))));
)sql";

constexpr const char* kRunColumns =
    "id, name, model_type, parameters, config_yaml, started_at, ended_at, status, reason, "
    "duration_s, best_valid, test_result, steps";

// What a read of runs selects: their columns, then the last test error rate of a long-range
// problem (by the metrics index, one lookup a run).
std::string runSelection() {
  return std::string(kRunColumns) +
         ", (SELECT value FROM metrics WHERE run_id = runs.id AND name = '" +
         metric::kTestErrorRate + "' ORDER BY step DESC, id DESC LIMIT 1)";
}

bool isEnded(RunStatus status) {
  return status == RunStatus::Stopped || status == RunStatus::Finished ||
         status == RunStatus::Failed;
}

int readUserVersion(sqlite3* db, const std::string& path) {
  SqliteStatement pragma(db, path, "cannot open", "PRAGMA user_version");
  return pragma.step() ? static_cast<int>(pragma.int64(0)) : 0;
}

void requireRun(sqlite3* db, const std::string& path, const std::string& action, int64_t runId) {
  SqliteStatement query(db, path, action, "SELECT 1 FROM runs WHERE id = ?1");
  query.bind(1, runId);
  if (!query.step()) run_rows::throwNoRun(path, action, runId);
}

// Runs one UPDATE or DELETE of the run `runId` (parameter ?1) in its own transaction;
// `bindRest` binds the other parameters. A run that does not exist is an error.
template <typename BindRest>
void changeRun(sqlite3* db, const std::string& path, const std::string& action, int64_t runId,
               const char* sql, BindRest&& bindRest) {
  SqliteTransaction transaction(db, path, action);
  SqliteStatement statement(db, path, action, sql);
  statement.bind(1, runId);
  bindRest(statement);
  statement.run();
  if (sqlite3_changes(db) == 0) run_rows::throwNoRun(path, action, runId);
  transaction.commit();
}

// A new run's id names its checkpoint folder. SQLite's next id, unless a database that began
// again (moved aside, deleted, restored from an older copy) would hand out the name of a
// folder an earlier run left: then the id after the highest such folder.
std::optional<int64_t> idPastRunFolders(sqlite3* db, const std::string& path,
                                        const std::string& action) {
  const int64_t highest = highestRunFolderId(run_rows::absoluteFolderOf(path).string());
  if (highest == 0) return std::nullopt;
  SqliteStatement used(db, path, action,
                       "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = "
                       "'runs'), 0), coalesce((SELECT max(id) FROM runs), 0))");
  used.step();
  if (used.int64(0) >= highest) return std::nullopt;
  return highest + 1;
}

RunRecord readRun(const SqliteStatement& row) {
  RunRecord run;
  run.id = row.int64(0);
  run.name = row.text(1);
  run.modelType = row.text(2);
  run.parameters = row.int64(3);
  run.configYaml = row.text(4);
  run.startedAt = row.text(5);
  run.endedAt = row.text(6);
  // The CHECK constraint admits only known names; Failed is the safe reading otherwise.
  run.status = runStatusFromName(row.text(7)).value_or(RunStatus::Failed);
  run.reason = row.text(8);
  run.durationSeconds = row.optionalReal(9).value_or(0.0);
  run.bestValid = row.optionalReal(10);
  run.testResult = row.optionalReal(11);
  run.steps = row.int64(12);
  run.testErrorRate = row.optionalReal(13);
  return run;
}

}  // namespace

namespace run_rows {

void execute(sqlite3* db, const std::string& path, const std::string& action, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    throwStoreError(db, path, action);
  }
}

[[noreturn]] void throwNoRun(const std::string& path, const std::string& action, int64_t runId) {
  throw StoreError("run database '" + path + "': " + action + ": no run " + std::to_string(runId));
}

// The run's columns but its id, bound from parameter `first` on in kRunColumns' order. An
// empty startedAt becomes now, and so does the missing end of a run that has ended.
void bindRunColumns(SqliteStatement& statement, int first, const RunRecord& run) {
  const std::string now = utcTimestamp();
  std::string endedAt = run.endedAt;
  if (endedAt.empty() && isEnded(run.status)) endedAt = now;
  statement.bind(first, run.name)
      .bind(first + 1, run.modelType)
      .bind(first + 2, run.parameters)
      .bind(first + 3, run.configYaml)
      .bind(first + 4, run.startedAt.empty() ? now : run.startedAt)
      .bindTextOrNull(first + 5, endedAt)
      .bind(first + 6, runStatusName(run.status))
      .bind(first + 7, run.reason)
      .bind(first + 8, run.durationSeconds)
      .bind(first + 9, run.bestValid)
      .bind(first + 10, run.testResult)
      .bind(first + 11, run.steps);
}

std::filesystem::path absoluteFolderOf(const std::string& databasePath) {
  std::filesystem::path folder = std::filesystem::path(databasePath).parent_path();
  if (folder.empty()) folder = ".";
  return std::filesystem::absolute(folder).lexically_normal();
}

// The writes below run inside the caller's transaction: creating a run and importing one
// share them.
int64_t insertRunRow(sqlite3* db, const std::string& path, const std::string& action,
                     const RunRecord& run, std::optional<int64_t> givenId) {
  const std::optional<int64_t> id = givenId ? givenId : idPastRunFolders(db, path, action);
  SqliteStatement insert(db, path, action,
                         "INSERT INTO runs (name, model_type, parameters, config_yaml, "
                         "started_at, ended_at, status, reason, duration_s, best_valid, "
                         "test_result, steps, id) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  bindRunColumns(insert, 1, run);
  if (id) {
    insert.bind(13, *id);
  } else {
    insert.bindNull(13);  // SQLite's next
  }
  insert.run();
  return sqlite3_last_insert_rowid(db);
}

// Each point a row; with `skipWritten`, not one whose run, name and step a row already has.
void insertMetricRows(sqlite3* db, const std::string& path, const std::string& action,
                      int64_t runId, const std::vector<MetricPoint>& points, bool skipWritten) {
  SqliteStatement insert(db, path, action,
                         skipWritten
                             ? "INSERT INTO metrics (run_id, name, step, epoch, wall_s, value) "
                               "SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM "
                               "metrics WHERE run_id = ?1 AND name = ?2 AND step = ?3)"
                             : "INSERT INTO metrics (run_id, name, step, epoch, wall_s, value) "
                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (const auto& point : points) {
    insert.bind(1, runId)
        .bind(2, point.name)
        .bind(3, point.step)
        .bind(4, point.epoch)
        .bind(5, point.wallSeconds)
        .bind(6, point.value);
    insert.run();
    insert.reset();
  }
}

void upsertCheckpointRow(sqlite3* db, const std::string& path, const std::string& action,
                         int64_t runId, const CheckpointRecord& checkpoint) {
  SqliteStatement upsert(db, path, action,
                         "INSERT INTO checkpoints (run_id, kind, path, step, valid_loss, "
                         "saved_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                         "ON CONFLICT (run_id, kind) DO UPDATE SET path = excluded.path, "
                         "step = excluded.step, valid_loss = excluded.valid_loss, "
                         "saved_at = excluded.saved_at");
  upsert.bind(1, runId)
      .bind(2, checkpoint.kind)
      .bind(3, checkpoint.path)
      .bind(4, checkpoint.step)
      .bind(5, checkpoint.validLoss)
      .bind(6, checkpoint.savedAt.empty() ? utcTimestamp() : checkpoint.savedAt);
  upsert.run();
}

}  // namespace run_rows

std::string runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::Running:
      return "running";
    case RunStatus::Paused:
      return "paused";
    case RunStatus::Stopped:
      return "stopped";
    case RunStatus::Finished:
      return "finished";
    case RunStatus::Failed:
      return "failed";
    case RunStatus::Interrupted:
      return "interrupted";
  }
  return "failed";
}

std::optional<RunStatus> runStatusFromName(const std::string& name) {
  for (const auto status : {RunStatus::Running, RunStatus::Paused, RunStatus::Stopped,
                            RunStatus::Finished, RunStatus::Failed, RunStatus::Interrupted}) {
    if (runStatusName(status) == name) return status;
  }
  return std::nullopt;
}

namespace {

// A path as an SQLite URI (file:...): the characters URIs reserve are escaped.
std::string sqliteUri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(c));
      uri += escaped;
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

}  // namespace

RunStore::RunStore(const std::string& path, Access access) : path_(path), access_(access) {
  // A link to a database elsewhere is the user's choice; a FIFO, device or folder is no
  // database (SQLite's own words for it would be "disk I/O error").
  struct stat status {};
  if (::stat(path_.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    throw StoreError("run database '" + path_ + "' is " + describeFileKind(status.st_mode) +
                     ", not a database file: move it away");
  }
  if (access_ == Access::ReadWrite) {
    std::error_code error;
    const bool existed = std::filesystem::exists(std::filesystem::symlink_status(path_, error));
    try {
      open(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path_);
    } catch (const StoreError&) {
      if (!existed) removeUnbegun();
      throw;
    }
    return;
  }
  if (!std::filesystem::exists(path_)) {
    throw StoreError("run database '" + path_ + "': cannot open: it does not exist");
  }
  try {
    open(SQLITE_OPEN_READONLY, path_);
  } catch (const StoreError&) {
    // A WAL database needs its -shm file; in a folder it cannot create one in, the file is
    // read as immutable (no other writer can be at work where nothing can be written).
    open(SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, sqliteUri(path_, "immutable=1"));
  }
}

void RunStore::removeUnbegun() const {
  // Only an empty file: one with anything in it came from somewhere else (another process
  // that began it meanwhile), and is left as it is.
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path_, error)) ||
      std::filesystem::file_size(path_, error) != 0 || error) {
    return;
  }
  std::filesystem::remove(path_, error);
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    const std::string companion = path_ + suffix;
    if (std::filesystem::file_size(companion, error) == 0 && !error) {
      std::filesystem::remove(companion, error);
    }
  }
}

void RunStore::open(int flags, const std::string& name) {
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string reason = storeErrorReason(db_);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError("run database '" + path_ + "': cannot open: " + reason);
  }
  try {
    configure();
  } catch (...) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw;
  }
}

RunStore::~RunStore() {
  sqlite3_close_v2(db_);
}

void RunStore::setBusyWait(int milliseconds) {
  sqlite3_busy_timeout(db_, milliseconds);
}

void RunStore::configure() {
  // Wait for another connection's write rather than failing at once: the GUI and the
  // trainer share the file.
  sqlite3_busy_timeout(db_, 5000);
  // Reading the header first: a file that is not a database fails here, and a newer
  // schema is refused before anything (even the journal mode) is changed.
  const int version = readUserVersion(db_, path_);
  requireWorkbenchDatabase(db_, path_);
  if (version > kSchemaVersion) {
    throw StoreError("run database '" + path_ + "' has schema version " + std::to_string(version) +
                     ", newer than this build understands (" + std::to_string(kSchemaVersion) +
                     "); update mRNN Workbench to open it");
  }
  if (access_ == Access::ReadOnly) {
    run_rows::execute(db_, path_, "cannot configure", "PRAGMA query_only = ON");
    if (version == 0) requireRunsTable();
    return;
  }
  {
    // WAL: readers never block the writer nor see a half-written transaction.
    SqliteStatement wal(db_, path_, "cannot switch to WAL mode", "PRAGMA journal_mode = WAL");
    wal.run();
  }
  // NORMAL is durable against a killed process in WAL mode (a power cut may lose the last
  // commits, never consistency); FULL would fsync every metrics batch.
  run_rows::execute(db_, path_, "cannot configure", "PRAGMA synchronous = NORMAL");
  run_rows::execute(db_, path_, "cannot configure", "PRAGMA foreign_keys = ON");
  if (version < kSchemaVersion) createSchema(version);
  markWorkbenchDatabase(db_, path_);
}

void RunStore::requireRunsTable() const {
  SqliteStatement query(db_, path_, "cannot open",
                        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'");
  if (query.step()) return;
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path_, error);
  if (!error && bytes == 0) {
    throw StoreDamagedError(
        "run database '" + path_ +
        "' is empty (0 bytes): whatever it recorded was lost; restore it from a backup, or set "
        "it aside (the workbench's Runs panel, or mrnn runs recover --set-aside) and the runs "
        "come back from their checkpoints");
  }
  throw StoreError("run database '" + path_ +
                   "' has no runs table: it is not a run database of this workbench");
}

void RunStore::createSchema(int fromVersion) {
  const std::string action =
      fromVersion == 0 ? "cannot create the schema" : "cannot upgrade the schema";
  SqliteTransaction transaction(db_, path_, action);
  // Another process may have created it while this one waited for the write lock.
  if (readUserVersion(db_, path_) >= kSchemaVersion) return;
  // Every statement is "if not exists": version 1 gains what version 2 added.
  run_rows::execute(db_, path_, action, kSchemaSql);
  run_rows::execute(db_, path_, action,
                    ("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
  transaction.commit();
}

std::string RunStore::projectId() const {
  try {
    SqliteStatement query(db_, path_, "cannot read the project id",
                          "SELECT value FROM project WHERE key = 'id'");
    return query.step() ? query.text(0) : std::string();
  } catch (const StoreError&) {
    return "";  // a version-1 database read without upgrading it
  }
}

int64_t RunStore::createRun(const RunRecord& run) {
  const std::string action = "cannot create a run";
  SqliteTransaction transaction(db_, path_, action);
  const int64_t id = run_rows::insertRunRow(db_, path_, action, run);
  transaction.commit();
  return id;
}

void RunStore::appendMetrics(int64_t runId, const std::vector<MetricPoint>& points) {
  if (points.empty()) return;
  const std::string action = "cannot append metrics";
  SqliteTransaction transaction(db_, path_, action);
  requireRun(db_, path_, action, runId);
  run_rows::insertMetricRows(db_, path_, action, runId, points);
  transaction.commit();
}

void RunStore::appendMissingMetrics(int64_t runId, const std::vector<MetricPoint>& points) {
  if (points.empty()) return;
  const std::string action = "cannot append metrics";
  SqliteTransaction transaction(db_, path_, action);
  requireRun(db_, path_, action, runId);
  run_rows::insertMetricRows(db_, path_, action, runId, points, true);
  transaction.commit();
}

void RunStore::recordCheckpoint(int64_t runId, const CheckpointRecord& checkpoint) {
  const std::string action = "cannot record a checkpoint";
  SqliteTransaction transaction(db_, path_, action);
  requireRun(db_, path_, action, runId);
  run_rows::upsertCheckpointRow(db_, path_, action, runId, checkpoint);
  transaction.commit();
}

void RunStore::updateProgress(int64_t runId, int64_t steps, double durationSeconds) {
  changeRun(db_, path_, "cannot update progress", runId,
            "UPDATE runs SET steps = ?2, duration_s = ?3 WHERE id = ?1",
            [&](SqliteStatement& update) { update.bind(2, steps).bind(3, durationSeconds); });
}

void RunStore::setStatus(int64_t runId, RunStatus status, const std::string& reason) {
  if (status == RunStatus::Interrupted) {
    throw StoreError("run database '" + path_ + "': 'interrupted' is read from a run's lock, " +
                     "never stored");
  }
  // ?4 is NULL for running/paused (clears ended_at); an already ended run keeps its time.
  changeRun(db_, path_, "cannot set the status", runId,
            "UPDATE runs SET status = ?2, reason = ?3, ended_at = CASE "
            "WHEN ?4 IS NULL THEN NULL "
            "WHEN ended_at IS NOT NULL AND status IN ('stopped', 'finished', 'failed') "
            "THEN ended_at ELSE ?4 END WHERE id = ?1",
            [&](SqliteStatement& update) {
              update.bind(2, runStatusName(status))
                  .bind(3, reason)
                  .bindTextOrNull(4, isEnded(status) ? utcTimestamp() : "");
            });
}

void RunStore::setBestValid(int64_t runId, double value) {
  changeRun(db_, path_, "cannot set the best validation loss", runId,
            "UPDATE runs SET best_valid = ?2 WHERE id = ?1",
            [&](SqliteStatement& update) { update.bind(2, value); });
}

void RunStore::setTestResult(int64_t runId, double value) {
  changeRun(db_, path_, "cannot set the test result", runId,
            "UPDATE runs SET test_result = ?2 WHERE id = ?1",
            [&](SqliteStatement& update) { update.bind(2, value); });
}

void RunStore::clearTestResult(int64_t runId) {
  changeRun(db_, path_, "cannot clear the test result", runId,
            "UPDATE runs SET test_result = NULL WHERE id = ?1", [](SqliteStatement&) {});
}

void RunStore::setConfig(int64_t runId, const std::string& configYaml) {
  changeRun(db_, path_, "cannot record the run's settings", runId,
            "UPDATE runs SET config_yaml = ?2 WHERE id = ?1",
            [&](SqliteStatement& update) { update.bind(2, configYaml); });
}

namespace run_rows {

// The researchers' notes: beside the run tables (as the imports' origins are), made by the
// first note; the schema version stays.
constexpr const char* kNotesSql = R"sql(
CREATE TABLE IF NOT EXISTS run_notes (
  run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  note TEXT NOT NULL
);
)sql";

bool hasTable(sqlite3* db, const std::string& path, const char* name) {
  SqliteStatement table(db, path, "cannot read the schema",
                        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  table.bind(1, std::string(name));
  return table.step();
}

// Within the caller's transaction: the run's note set, or removed when empty.
void writeNote(sqlite3* db, const std::string& path, const std::string& action, int64_t runId,
               const std::string& note) {
  if (note.empty()) {
    if (!run_rows::hasTable(db, path, "run_notes")) return;
    SqliteStatement remove(db, path, action, "DELETE FROM run_notes WHERE run_id = ?1");
    remove.bind(1, runId);
    remove.run();
    return;
  }
  run_rows::execute(db, path, action, kNotesSql);
  SqliteStatement upsert(db, path, action,
                         "INSERT OR REPLACE INTO run_notes (run_id, note) VALUES (?1, ?2)");
  upsert.bind(1, runId).bind(2, note);
  upsert.run();
}

}  // namespace run_rows

std::vector<RunRecord> RunStore::listRuns() const {
  const std::string sql = "SELECT " + runSelection() + " FROM runs ORDER BY id";
  SqliteStatement query(db_, path_, "cannot list runs", sql.c_str());
  std::vector<RunRecord> runs;
  while (query.step()) runs.push_back(readRun(query));
  attachNotes(runs);
  return runs;
}

std::optional<RunRecord> RunStore::run(int64_t runId) const {
  const std::string sql = "SELECT " + runSelection() + " FROM runs WHERE id = ?1";
  SqliteStatement query(db_, path_, "cannot read a run", sql.c_str());
  query.bind(1, runId);
  if (!query.step()) return std::nullopt;
  std::vector<RunRecord> one{readRun(query)};
  attachNotes(one);
  return one.front();
}

void RunStore::attachNotes(std::vector<RunRecord>& runs) const {
  if (runs.empty() || !run_rows::hasTable(db_, path_, "run_notes")) return;
  SqliteStatement query(db_, path_, "cannot read the runs' notes",
                        "SELECT run_id, note FROM run_notes");
  std::map<int64_t, std::string> notes;
  while (query.step()) notes[query.int64(0)] = query.text(1);
  for (RunRecord& run : runs) {
    const auto found = notes.find(run.id);
    if (found != notes.end()) run.note = found->second;
  }
}

void RunStore::renameRun(int64_t runId, const std::string& name) {
  const std::string action = "cannot rename run " + std::to_string(runId);
  if (name.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw StoreError("run database '" + path_ + "': " + action + ": a name cannot be empty");
  }
  changeRun(db_, path_, action, runId, "UPDATE runs SET name = ?2 WHERE id = ?1",
            [&](SqliteStatement& update) { update.bind(2, name); });
}

void RunStore::setNote(int64_t runId, const std::string& note) {
  const std::string action = "cannot set the note of run " + std::to_string(runId);
  SqliteTransaction transaction(db_, path_, action);
  requireRun(db_, path_, action, runId);
  run_rows::writeNote(db_, path_, action, runId, note);
  transaction.commit();
}

std::vector<MetricPoint> RunStore::metrics(int64_t runId, const std::string& name) const {
  const char* sql = name.empty() ? "SELECT name, step, epoch, wall_s, value FROM metrics "
                                   "WHERE run_id = ?1 ORDER BY name, step, id"
                                 : "SELECT name, step, epoch, wall_s, value FROM metrics "
                                   "WHERE run_id = ?1 AND name = ?2 ORDER BY step, id";
  SqliteStatement query(db_, path_, "cannot read metrics", sql);
  query.bind(1, runId);
  if (!name.empty()) query.bind(2, name);
  std::vector<MetricPoint> points;
  while (query.step()) {
    MetricPoint point;
    point.name = query.text(0);
    point.step = query.int64(1);
    point.epoch = query.real(2);
    point.wallSeconds = query.real(3);
    point.value = query.real(4);
    points.push_back(std::move(point));
  }
  return points;
}

std::vector<std::string> RunStore::metricNames(int64_t runId) const {
  SqliteStatement query(db_, path_, "cannot read metric names",
                        "SELECT DISTINCT name FROM metrics WHERE run_id = ?1 ORDER BY name");
  query.bind(1, runId);
  std::vector<std::string> names;
  while (query.step()) names.push_back(query.text(0));
  return names;
}

std::vector<MetricSummary> RunStore::metricSummaries(int64_t runId) const {
  // The last point is the one with the highest step (the latest written among equal steps);
  // each lookup walks the (run_id, name, step) index backwards.
  SqliteStatement query(db_, path_, "cannot summarise metrics",
                        "SELECT m.name, COUNT(*), "
                        "(SELECT l.id FROM metrics l WHERE l.run_id = m.run_id "
                        "AND l.name = m.name ORDER BY l.step DESC, l.id DESC LIMIT 1) AS last "
                        "FROM metrics m WHERE m.run_id = ?1 GROUP BY m.name ORDER BY m.name");
  SqliteStatement last(db_, path_, "cannot summarise metrics",
                       "SELECT step, value FROM metrics WHERE id = ?1");
  query.bind(1, runId);
  std::vector<MetricSummary> summaries;
  while (query.step()) {
    MetricSummary summary;
    summary.name = query.text(0);
    summary.points = query.int64(1);
    last.bind(1, query.int64(2));
    if (last.step()) {
      summary.lastStep = last.int64(0);
      summary.lastValue = last.real(1);
    }
    last.reset();
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

std::vector<CheckpointRecord> RunStore::checkpoints(int64_t runId) const {
  SqliteStatement query(db_, path_, "cannot read checkpoints",
                        "SELECT kind, path, step, valid_loss, saved_at FROM checkpoints "
                        "WHERE run_id = ?1 ORDER BY kind");
  query.bind(1, runId);
  std::vector<CheckpointRecord> records;
  while (query.step()) {
    CheckpointRecord record;
    record.kind = query.text(0);
    record.path = query.text(1);
    record.step = query.int64(2);
    record.validLoss = query.optionalReal(3);
    record.savedAt = query.text(4);
    records.push_back(std::move(record));
  }
  return records;
}

void RunStore::deleteMetricsAfter(int64_t runId, int64_t step) {
  const std::string action = "cannot drop metrics after a resumed checkpoint";
  SqliteTransaction transaction(db_, path_, action);
  requireRun(db_, path_, action, runId);
  SqliteStatement remove(db_, path_, action, "DELETE FROM metrics WHERE run_id = ?1 AND step > ?2");
  remove.bind(1, runId).bind(2, step);
  remove.run();
  transaction.commit();
}

void RunStore::deleteRun(int64_t runId) {
  // foreign_keys = ON: the metrics and checkpoints go with the run, in the same transaction.
  changeRun(db_, path_, "cannot delete a run", runId, "DELETE FROM runs WHERE id = ?1",
            [](SqliteStatement&) {});
}

std::string RunStore::integrityCheck() const {
  SqliteStatement query(db_, path_, "cannot check integrity", "PRAGMA integrity_check");
  std::string findings;
  while (query.step()) {
    if (!findings.empty()) findings += '\n';
    findings += query.text(0);
  }
  return findings;
}

}  // namespace mrnn::engine
