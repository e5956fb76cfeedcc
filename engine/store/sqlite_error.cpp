#include "engine/store/sqlite_error.h"

#include <sqlite3.h>

#include <cstring>

#include "engine/store/run_store.h"

namespace mrnn::engine {
namespace {

// The operating system's reason, where SQLite's error came from one.
std::string systemReason(sqlite3* db) {
  const int error = sqlite3_system_errno(db);
  return error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string();
}

}  // namespace

std::string storeErrorReason(sqlite3* db) {
  if (db == nullptr) return "out of memory";
  // The file is left as it is: a damaged database may still be mended with SQLite's own
  // tools, and a new one beside the old runs' checkpoint folders takes ids past theirs.
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_CORRUPT:
      return "it is damaged (part of it is missing or overwritten); the workbench leaves it as "
             "it is: put back a copy, or set it aside (the workbench's Runs panel, or mrnn runs "
             "recover --set-aside) and the runs come back from their checkpoints";
    case SQLITE_NOTADB:
      return "it is not a run database, nor any SQLite database; the workbench leaves it as it "
             "is: set it aside (the workbench's Runs panel, or mrnn runs recover --set-aside) and "
             "the runs come back from their checkpoints";
    case SQLITE_FULL:
      return "the disk is full";
    case SQLITE_READONLY:
      return "it can be read but not written (the file or its folder is read-only)";
    case SQLITE_CANTOPEN:
      return "the file cannot be opened: its folder is missing, or cannot be read or written" +
             systemReason(db);
    case SQLITE_IOERR:
      return "the system could not read or write it" + systemReason(db);
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return "permission denied";
    case SQLITE_NOMEM:
      return "out of memory";
    case SQLITE_TOOBIG:
      return "a value is too large to store";
    default:
      return sqlite3_errmsg(db);
  }
}

void throwStoreError(sqlite3* db, const std::string& path, const std::string& action) {
  const int code = sqlite3_errcode(db) & 0xff;
  if (db != nullptr && (code == SQLITE_BUSY || code == SQLITE_LOCKED)) {
    throw StoreBusyError("run database '" + path + "': " + action +
                         ": another program holds it locked");
  }
  const std::string message =
      "run database '" + path + "': " + action + ": " + storeErrorReason(db);
  if (db != nullptr && (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)) {
    throw StoreDamagedError(message);
  }
  throw StoreError(message);
}

}  // namespace mrnn::engine
