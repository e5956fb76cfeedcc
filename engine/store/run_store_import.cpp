// RunStore's runs that come from elsewhere: imported from another project's database, or
// recovered from checkpoint files whose record a lost database took with it.
#include <sqlite3.h>

#include <filesystem>

#include "engine/store/run_rows.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_error.h"
#include "engine/store/sqlite_statement.h"
#include "engine/store/sqlite_transaction.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {

namespace {

// Which source run each imported run is: an addition beside the run tables (as the
// experiments' table is), made by the first import; the schema version stays.
constexpr const char* kOriginsSql = R"sql(
CREATE TABLE IF NOT EXISTS run_origins (
  run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  source_project TEXT NOT NULL,
  source_run INTEGER NOT NULL,
  source_folder TEXT NOT NULL,
  imported_at TEXT NOT NULL,
  UNIQUE (source_project, source_run)
);
)sql";

// An absolute path as the database in folder `to` records it: relative to `to` when it lies
// inside it (the project folder may move), else absolute.
std::string recordedFrom(const std::filesystem::path& absolute, const std::filesystem::path& to) {
  const std::filesystem::path relative = absolute.lexically_relative(to);
  if (relative.empty() || *relative.begin() == "..") return absolute.string();
  return relative.generic_string();
}

// A path recorded by the database in `from` (relative to it, or absolute), for the one in `to`.
std::string rebased(const std::string& path, const std::filesystem::path& from,
                    const std::filesystem::path& to) {
  if (std::filesystem::path(path).is_absolute()) return path;
  return recordedFrom((from / path).lexically_normal(), to);
}

}  // namespace

int64_t RunStore::importRun(const RunStore& source, int64_t sourceRunId,
                            const std::optional<std::string>& configYaml) {
  const std::string action =
      "cannot import run " + std::to_string(sourceRunId) + " of '" + source.path() + "'";
  std::optional<RunRecord> run = source.run(sourceRunId);
  if (!run) run_rows::throwNoRun(source.path(), "cannot import", sourceRunId);
  const std::string sourceProject = source.projectId();
  if (sourceProject.empty() || sourceProject == projectId()) {
    throw StoreError("run database '" + path_ + "': " + action + ": " +
                     (sourceProject.empty() ? "it carries no project id (an older database)"
                                            : "it is this database"));
  }
  // Read the source first: it is another connection, outside this transaction.
  const std::vector<MetricPoint> points = source.metrics(sourceRunId);
  std::vector<CheckpointRecord> checkpoints = source.checkpoints(sourceRunId);
  const std::filesystem::path from = run_rows::absoluteFolderOf(source.path());
  const std::filesystem::path to = run_rows::absoluteFolderOf(path_);
  for (CheckpointRecord& checkpoint : checkpoints) {
    checkpoint.path = rebased(checkpoint.path, from, to);
  }
  if (configYaml) run->configYaml = *configYaml;

  SqliteTransaction transaction(db_, path_, action);
  run_rows::execute(db_, path_, action, kOriginsSql);
  int64_t id = 0;
  {
    SqliteStatement find(db_, path_, action,
                         "SELECT run_id FROM run_origins WHERE source_project = ?1 AND "
                         "source_run = ?2");
    find.bind(1, sourceProject).bind(2, sourceRunId);
    if (find.step()) id = find.int64(0);
  }
  if (id > 0) {
    SqliteStatement update(db_, path_, action,
                           "UPDATE runs SET name = ?2, model_type = ?3, parameters = ?4, "
                           "config_yaml = ?5, started_at = ?6, ended_at = ?7, status = ?8, "
                           "reason = ?9, duration_s = ?10, best_valid = ?11, "
                           "test_result = ?12, steps = ?13 WHERE id = ?1");
    update.bind(1, id);
    run_rows::bindRunColumns(update, 2, *run);
    update.run();
    for (const char* sql :
         {"DELETE FROM metrics WHERE run_id = ?1", "DELETE FROM checkpoints WHERE run_id = ?1"}) {
      SqliteStatement remove(db_, path_, action, sql);
      remove.bind(1, id);
      remove.run();
    }
  } else {
    id = run_rows::insertRunRow(db_, path_, action, *run);
    SqliteStatement origin(db_, path_, action,
                           "INSERT INTO run_origins (run_id, source_project, source_run, "
                           "source_folder, imported_at) VALUES (?1, ?2, ?3, ?4, ?5)");
    origin.bind(1, id)
        .bind(2, sourceProject)
        .bind(3, sourceRunId)
        .bind(4, recordedFrom(from, to))
        .bind(5, utcTimestamp());
    origin.run();
  }
  run_rows::insertMetricRows(db_, path_, action, id, points);
  for (const CheckpointRecord& checkpoint : checkpoints) {
    run_rows::upsertCheckpointRow(db_, path_, action, id, checkpoint);
  }
  run_rows::writeNote(db_, path_, action, id, run->note);
  transaction.commit();
  return id;
}

std::optional<RunOrigin> RunStore::origin(int64_t runId) const {
  {
    SqliteStatement table(db_, path_, "cannot read run origins",
                          "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                          "name = 'run_origins'");
    if (!table.step()) return std::nullopt;  // nothing was ever imported
  }
  SqliteStatement query(db_, path_, "cannot read run origins",
                        "SELECT source_project, source_run, source_folder FROM run_origins "
                        "WHERE run_id = ?1");
  query.bind(1, runId);
  if (!query.step()) return std::nullopt;
  return RunOrigin{query.text(0), query.int64(1), query.text(2)};
}

void RunStore::recoverRun(const RunRecord& run, const std::vector<CheckpointRecord>& checkpoints,
                          const std::vector<MetricPoint>& points, const std::string& runProject) {
  const std::string action = "cannot recover run " + std::to_string(run.id);
  if (run.id <= 0) throw StoreError("run database '" + path_ + "': " + action + ": no run id");
  SqliteTransaction transaction(db_, path_, action);
  {
    SqliteStatement taken(db_, path_, action, "SELECT 1 FROM runs WHERE id = ?1");
    taken.bind(1, run.id);
    if (taken.step()) {
      throw StoreError("run database '" + path_ + "': " + action + ": run " +
                       std::to_string(run.id) + " is recorded already");
    }
  }
  run_rows::insertRunRow(db_, path_, action, run, run.id);
  run_rows::insertMetricRows(db_, path_, action, run.id, points, true);
  for (const CheckpointRecord& checkpoint : checkpoints) {
    run_rows::upsertCheckpointRow(db_, path_, action, run.id, checkpoint);
  }
  if (!runProject.empty() && runProject != projectId()) {
    // The project as its lost database knew it: its checkpoints carry that id.
    SqliteStatement alias(db_, path_, action,
                          "INSERT OR IGNORE INTO project (key, value) VALUES (?1, ?2)");
    alias.bind(1, "alias " + runProject).bind(2, utcTimestamp());
    alias.run();
  }
  transaction.commit();
}

bool RunStore::ownsProjectId(const std::string& id) const {
  if (id.empty()) return false;
  try {
    SqliteStatement query(db_, path_, "cannot read the project id",
                          "SELECT 1 FROM project WHERE (key = 'id' AND value = ?1) OR key = ?2");
    query.bind(1, id).bind(2, "alias " + id);
    return query.step();
  } catch (const StoreError&) {
    return false;  // a version-1 database read without upgrading it
  }
}

}  // namespace mrnn::engine
