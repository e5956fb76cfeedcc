#pragma once

#include <string>

struct sqlite3;

namespace mrnn::engine {

// What went wrong with the database, in a researcher's words, from the connection's last
// error: "it is damaged (...)", "the disk is full", ... SQLite's own message only where no
// plainer one fits (an internal constraint). A null handle means SQLite ran out of memory.
std::string storeErrorReason(sqlite3* db);

// Throws StoreError "run database '<path>': <action>: <storeErrorReason>", so every failure
// names the file at fault and why; a database another connection holds locked throws
// StoreBusyError, "... another program holds it locked".
[[noreturn]] void throwStoreError(sqlite3* db, const std::string& path, const std::string& action);

}  // namespace mrnn::engine
