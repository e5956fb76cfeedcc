#pragma once

#include <string>

struct sqlite3;

namespace mrnn::engine {

// Whose a SQLite file at a project's runs.sqlite is. The workbench marks its run databases
// (PRAGMA application_id, 'mrnn'); one made before the mark is known by its runs table. Another
// program's database at that name (its own tables, or its own application id) is never
// written: not switched to WAL, not given the workbench's tables.

// Throws StoreError naming `path` and the tables found when the database is another
// program's; an empty database (a new file) is the workbench's to fill.
void requireWorkbenchDatabase(sqlite3* db, const std::string& path);

// Marks the database as the workbench's (a write: only with the database open for writing).
void markWorkbenchDatabase(sqlite3* db, const std::string& path);

}  // namespace mrnn::engine
