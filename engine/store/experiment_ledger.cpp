#include "engine/store/experiment_ledger.h"

#include <sqlite3.h>

#include <filesystem>
#include <functional>

#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_error.h"
#include "engine/store/sqlite_statement.h"
#include "engine/store/sqlite_transaction.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

// An addition beside the run tables, not a change to them: builds that predate experiments
// read the database as before (the schema version stays RunStore's).
constexpr const char* kTableSql = R"sql(
CREATE TABLE IF NOT EXISTS experiment_trials (
  experiment TEXT NOT NULL,
  trial INTEGER NOT NULL,
  configuration INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  fingerprint TEXT NOT NULL DEFAULT '',
  parameters INTEGER NOT NULL DEFAULT 0,
  rung INTEGER NOT NULL DEFAULT 0,
  budget INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cut')),
  reason TEXT NOT NULL DEFAULT '',
  run_id INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (experiment, trial)
);
)sql";

constexpr const char* kColumns =
    "experiment, trial, configuration, seed, label, fingerprint, parameters, rung, budget, "
    "status, reason, run_id, updated_at";

TrialRecord readTrial(const SqliteStatement& row) {
  TrialRecord trial;
  trial.experiment = row.text(0);
  trial.trial = row.int64(1);
  trial.configuration = row.int64(2);
  trial.seed = row.int64(3);
  trial.label = row.text(4);
  trial.fingerprint = row.text(5);
  trial.parameters = row.int64(6);
  trial.rung = row.int64(7);
  trial.budget = row.int64(8);
  trial.status = trialStatusFromName(row.text(9)).value_or(TrialStatus::Failed);
  trial.reason = row.text(10);
  trial.runId = row.int64(11);
  trial.updatedAt = row.text(12);
  return trial;
}

}  // namespace

std::string trialStatusName(TrialStatus status) {
  switch (status) {
    case TrialStatus::Queued:
      return "queued";
    case TrialStatus::Running:
      return "running";
    case TrialStatus::Done:
      return "done";
    case TrialStatus::Failed:
      return "failed";
    case TrialStatus::Cut:
      return "cut";
  }
  return "failed";
}

std::optional<TrialStatus> trialStatusFromName(const std::string& name) {
  for (const auto status : {TrialStatus::Queued, TrialStatus::Running, TrialStatus::Done,
                            TrialStatus::Failed, TrialStatus::Cut}) {
    if (trialStatusName(status) == name) return status;
  }
  return std::nullopt;
}

ExperimentLedger::ExperimentLedger(const std::string& projectFolder, Access access, int busyWait)
    : path_(RunPaths::database(projectFolder)) {
  if (access == Access::ReadWrite) {
    // RunStore creates (or upgrades) the database and switches it to WAL first.
    { RunStore store(path_); }
  } else if (!std::filesystem::exists(path_)) {
    hasTable_ = false;
    return;
  }
  const int flags = access == Access::ReadWrite ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string reason = storeErrorReason(db_);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError("run database '" + path_ + "': cannot open: " + reason);
  }
  sqlite3_busy_timeout(db_, busyWait);
  if (access == Access::ReadWrite) {
    if (sqlite3_exec(db_, kTableSql, nullptr, nullptr, nullptr) != SQLITE_OK) {
      try {
        throwStoreError(db_, path_, "cannot create the experiment table");
      } catch (...) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
      }
    }
    return;
  }
  SqliteStatement query(db_, path_, "cannot read the experiment table",
                        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                        "'experiment_trials'");
  hasTable_ = query.step();
}

ExperimentLedger::~ExperimentLedger() {
  sqlite3_close_v2(db_);
}

void ExperimentLedger::setBusyWait(int milliseconds) {
  if (db_ != nullptr) sqlite3_busy_timeout(db_, milliseconds);
}

std::vector<TrialRecord> ExperimentLedger::trials(const std::string& experiment) const {
  std::vector<TrialRecord> out;
  if (!hasTable_) return out;
  SqliteStatement query(db_, path_, "cannot read the experiment's trials",
                        (std::string("SELECT ") + kColumns +
                         " FROM experiment_trials WHERE experiment = ?1 ORDER BY trial")
                            .c_str());
  query.bind(1, experiment);
  while (query.step()) out.push_back(readTrial(query));
  return out;
}

std::optional<TrialRecord> ExperimentLedger::trial(const std::string& experiment,
                                                   int64_t index) const {
  if (!hasTable_) return std::nullopt;
  SqliteStatement query(db_, path_, "cannot read the trial",
                        (std::string("SELECT ") + kColumns +
                         " FROM experiment_trials WHERE experiment = ?1 AND trial = ?2")
                            .c_str());
  query.bind(1, experiment).bind(2, index);
  if (!query.step()) return std::nullopt;
  return readTrial(query);
}

std::vector<TrialRecord> ExperimentLedger::trialsOfRun(int64_t runId) const {
  std::vector<TrialRecord> out;
  if (!hasTable_ || runId <= 0) return out;
  SqliteStatement query(db_, path_, "cannot read the run's trials",
                        (std::string("SELECT ") + kColumns +
                         " FROM experiment_trials WHERE run_id = ?1 ORDER BY experiment, trial")
                            .c_str());
  query.bind(1, runId);
  while (query.step()) out.push_back(readTrial(query));
  return out;
}

void ExperimentLedger::forgetRun(int64_t runId, const std::string& reason) {
  if (!hasTable_ || runId <= 0) return;
  const std::string action =
      "cannot return run " + std::to_string(runId) + "'s trials to the queue";
  SqliteTransaction transaction(db_, path_, action);
  SqliteStatement statement(db_, path_, action,
                            "UPDATE experiment_trials SET status = ?2, run_id = 0, reason = ?3, "
                            "updated_at = ?4 WHERE run_id = ?1");
  statement.bind(1, runId)
      .bind(2, trialStatusName(TrialStatus::Queued))
      .bind(3, reason)
      .bind(4, utcTimestamp());
  statement.run();
  transaction.commit();
}

void ExperimentLedger::put(const TrialRecord& trial) {
  const std::string action = "cannot record trial " + std::to_string(trial.trial);
  SqliteTransaction transaction(db_, path_, action);
  SqliteStatement insert(db_, path_, action,
                         (std::string("INSERT OR REPLACE INTO experiment_trials (") + kColumns +
                          ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
                             .c_str());
  insert.bind(1, trial.experiment)
      .bind(2, trial.trial)
      .bind(3, trial.configuration)
      .bind(4, trial.seed)
      .bind(5, trial.label)
      .bind(6, trial.fingerprint)
      .bind(7, trial.parameters)
      .bind(8, trial.rung)
      .bind(9, trial.budget)
      .bind(10, trialStatusName(trial.status))
      .bind(11, trial.reason)
      .bind(12, trial.runId)
      .bind(13, utcTimestamp());
  insert.run();
  transaction.commit();
}

void ExperimentLedger::update(const std::string& action, const std::string& experiment,
                              int64_t index, const char* sql,
                              const std::function<void(SqliteStatement&)>& bindRest) {
  SqliteTransaction transaction(db_, path_, action);
  SqliteStatement statement(db_, path_, action, sql);
  statement.bind(1, experiment).bind(2, index).bind(3, utcTimestamp());
  bindRest(statement);
  statement.run();
  if (sqlite3_changes(db_) == 0) {
    throw StoreError("run database '" + path_ + "': " + action + ": experiment '" + experiment +
                     "' has no trial " + std::to_string(index));
  }
  transaction.commit();
}

void ExperimentLedger::setStatus(const std::string& experiment, int64_t index, TrialStatus status,
                                 const std::string& reason) {
  update("cannot set the trial's status", experiment, index,
         "UPDATE experiment_trials SET status = ?4, reason = ?5, updated_at = ?3 "
         "WHERE experiment = ?1 AND trial = ?2",
         [&](SqliteStatement& statement) {
           statement.bind(4, trialStatusName(status)).bind(5, reason);
         });
}

void ExperimentLedger::setRun(const std::string& experiment, int64_t index, int64_t runId) {
  update("cannot record the trial's run", experiment, index,
         "UPDATE experiment_trials SET run_id = ?4, updated_at = ?3 "
         "WHERE experiment = ?1 AND trial = ?2",
         [&](SqliteStatement& statement) { statement.bind(4, runId); });
}

void ExperimentLedger::setBudget(const std::string& experiment, int64_t index, int64_t rung,
                                 int64_t budget) {
  update("cannot set the trial's budget", experiment, index,
         "UPDATE experiment_trials SET rung = ?4, budget = ?5, updated_at = ?3 "
         "WHERE experiment = ?1 AND trial = ?2",
         [&](SqliteStatement& statement) { statement.bind(4, rung).bind(5, budget); });
}

void ExperimentLedger::remove(const std::string& experiment, int64_t index) {
  SqliteTransaction transaction(db_, path_, "cannot remove the trial");
  SqliteStatement statement(db_, path_, "cannot remove the trial",
                            "DELETE FROM experiment_trials WHERE experiment = ?1 AND trial = ?2");
  statement.bind(1, experiment).bind(2, index);
  statement.run();
  transaction.commit();
}

void ExperimentLedger::removeAll(const std::string& experiment) {
  SqliteTransaction transaction(db_, path_, "cannot remove the experiment's trials");
  SqliteStatement statement(db_, path_, "cannot remove the experiment's trials",
                            "DELETE FROM experiment_trials WHERE experiment = ?1");
  statement.bind(1, experiment);
  statement.run();
  transaction.commit();
}

}  // namespace mrnn::engine
