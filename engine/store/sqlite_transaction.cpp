#include "engine/store/sqlite_transaction.h"

#include <sqlite3.h>

#include "engine/store/sqlite_error.h"

namespace mrnn::engine {

SqliteTransaction::SqliteTransaction(sqlite3* db, const std::string& path,
                                     const std::string& action)
    : db_(db), path_(path), action_(action) {
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    throwStoreError(db_, path_, action_);
  }
  open_ = true;
}

SqliteTransaction::~SqliteTransaction() {
  // Some errors (SQLITE_FULL, SQLITE_IOERR) roll back on their own; only roll back what is
  // still open, and never throw from here.
  if (open_ && sqlite3_get_autocommit(db_) == 0) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void SqliteTransaction::commit() {
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    throwStoreError(db_, path_, action_);
  }
  open_ = false;
}

}  // namespace mrnn::engine
