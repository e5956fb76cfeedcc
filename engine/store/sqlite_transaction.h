#pragma once

#include <string>

struct sqlite3;

namespace mrnn::engine {

// A write transaction: BEGIN IMMEDIATE on construction (takes the write lock up front, so a
// busy database waits out busy_timeout instead of failing half-way), COMMIT on commit(),
// ROLLBACK on destruction otherwise. A process killed before COMMIT leaves nothing behind.
class SqliteTransaction {
 public:
  SqliteTransaction(sqlite3* db, const std::string& path, const std::string& action);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;

  void commit();

 private:
  sqlite3* db_;
  const std::string& path_;
  std::string action_;
  bool open_ = false;
};

}  // namespace mrnn::engine
