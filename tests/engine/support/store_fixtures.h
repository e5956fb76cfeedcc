#pragma once

// Shared by the run-store and `mrnn runs` tests: a scratch folder, direct SQLite access
// (to look under the store's API: row counts, a competing writer, a doctored header) and
// a two-run fixture with awkward text.

#include <sqlite3.h>
#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "engine/store/run_store.h"

namespace mrnn::test {

// A fresh folder under the temporary directory, removed with its contents afterwards.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mrnn-store-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    folder_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  std::string path() const { return folder_.string(); }
  std::string file(const std::string& name) const { return (folder_ / name).string(); }
  void write(const std::string& name, const std::string& contents) const {
    std::ofstream out(folder_ / name, std::ios::binary);
    out << contents;
  }

 private:
  std::filesystem::path folder_;
};

// A raw connection to the same file, for what the store's API does not show.
class RawDatabase {
 public:
  explicit RawDatabase(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
      throw std::runtime_error("cannot open " + path);
    }
    sqlite3_busy_timeout(db_, 5000);
  }
  ~RawDatabase() { sqlite3_close(db_); }
  RawDatabase(const RawDatabase&) = delete;
  RawDatabase& operator=(const RawDatabase&) = delete;

  void execute(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
      const std::string reason = message != nullptr ? message : "?";
      sqlite3_free(message);
      throw std::runtime_error(sql + ": " + reason);
    }
  }
  // The first column of the first row, as text ("" when there is none).
  std::string scalar(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sql + ": " + sqlite3_errmsg(db_));
    }
    std::string value;
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0) != nullptr) {
      value = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    return value;
  }
  int64_t count(const std::string& sql) { return std::stoll(scalar(sql)); }

 private:
  sqlite3* db_ = nullptr;
};

// Two finished runs with a comma, quotes and a newline in their text, metrics with an
// awkward name and a NaN, and a checkpoint. Fixed times, so exports are known exactly.
inline void addFixtureRuns(engine::RunStore& store) {
  engine::RunRecord first;
  first.name = "char, \"small\"";
  first.modelType = "mlstm x2";
  first.parameters = 1234567;
  first.configYaml = "model:\n  type: mlstm\n";
  first.startedAt = "2024-05-01T10:00:00Z";
  first.endedAt = "2024-05-01T11:02:03Z";
  first.status = engine::RunStatus::Finished;
  first.durationSeconds = 3723.5;
  first.bestValid = 1.25;
  first.testResult = 1.3;
  first.steps = 10000;
  const int64_t firstId = store.createRun(first);

  engine::RunRecord second;
  second.name = "word-lm";
  second.modelType = "lstm";
  second.parameters = 42;
  second.startedAt = "2024-05-02T09:00:00Z";
  second.endedAt = "2024-05-02T09:00:01Z";
  second.status = engine::RunStatus::Failed;
  second.reason = "loss became NaN\nat step 7, \"diverged\"";
  second.durationSeconds = 0.1;
  second.steps = 7;
  store.createRun(second);

  store.appendMetrics(firstId, {{"train/loss", 1, 0.5, 2.0, 1.5},
                                {"train/loss", 2, 1.0, 4.0, 0.1},
                                {"odd,\"name\"", 2, 1.0, 4.0, -2.5e-7},
                                {"valid/bpc", 2, 1.0, 4.5, std::nan("")}});
  store.recordCheckpoint(firstId,
                         {"best", "checkpoints/run-1/best.pt", 2, 1.25, "2024-05-01T11:00:00Z"});
}

}  // namespace mrnn::test
