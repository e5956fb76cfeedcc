#pragma once

#include <string>

struct sqlite3;

namespace mrnn::engine {

// Throws StoreError "run database '<path>': <action>: <SQLite's message>", so every failure
// names the file at fault and SQLite's own reason ("file is not a database", ...); a database
// another connection holds locked throws StoreBusyError, "... another program holds it locked".
[[noreturn]] void throwStoreError(sqlite3* db, const std::string& path, const std::string& action);

}  // namespace mrnn::engine
