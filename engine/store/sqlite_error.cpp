#include "engine/store/sqlite_error.h"

#include <sqlite3.h>

#include "engine/store/run_store.h"

namespace mrnn::engine {

void throwStoreError(sqlite3* db, const std::string& path, const std::string& action) {
  // sqlite3_errmsg on a null handle reports "out of memory", which is what it means there.
  const int code = sqlite3_errcode(db) & 0xff;
  if (db != nullptr && (code == SQLITE_BUSY || code == SQLITE_LOCKED)) {
    throw StoreBusyError("run database '" + path + "': " + action +
                         ": another program holds it locked");
  }
  const std::string reason = sqlite3_errmsg(db);
  throw StoreError("run database '" + path + "': " + action + ": " + reason);
}

}  // namespace mrnn::engine
