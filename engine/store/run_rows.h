#pragma once

// RunStore's row writers, shared by its files (run_store.cpp, run_store_import.cpp) and by no
// one else: each runs inside the caller's transaction on the caller's connection.

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/run_store.h"
#include "engine/store/sqlite_statement.h"

namespace mrnn::engine::run_rows {

void execute(sqlite3* db, const std::string& path, const std::string& action, const char* sql);
[[noreturn]] void throwNoRun(const std::string& path, const std::string& action, int64_t runId);
// The run's columns but its id, bound from parameter `first` on (kRunColumns' order).
void bindRunColumns(SqliteStatement& statement, int first, const RunRecord& run);
// The folder the database at `databasePath` lies in, absolute.
std::filesystem::path absoluteFolderOf(const std::string& databasePath);
// A new run's row; its id `givenId`, else the next one past SQLite's and the run folders'.
int64_t insertRunRow(sqlite3* db, const std::string& path, const std::string& action,
                     const RunRecord& run, std::optional<int64_t> givenId = std::nullopt);
// Each point a row; with `skipWritten`, not one whose run, name and step a row already has.
void insertMetricRows(sqlite3* db, const std::string& path, const std::string& action,
                      int64_t runId, const std::vector<MetricPoint>& points,
                      bool skipWritten = false);
void upsertCheckpointRow(sqlite3* db, const std::string& path, const std::string& action,
                         int64_t runId, const CheckpointRecord& checkpoint);
bool hasTable(sqlite3* db, const std::string& path, const char* name);
// The run's note set, or removed when empty.
void writeNote(sqlite3* db, const std::string& path, const std::string& action, int64_t runId,
               const std::string& note);

}  // namespace mrnn::engine::run_rows
