#include "engine/store/database_owner.h"

#include <sqlite3.h>

#include <cstdint>
#include <vector>

#include "engine/store/run_store.h"
#include "engine/store/sqlite_error.h"
#include "engine/store/sqlite_statement.h"

namespace mrnn::engine {
namespace {

constexpr int64_t kWorkbenchApplicationId = 0x6D726E6E;  // "mrnn"

int64_t applicationId(sqlite3* db, const std::string& path) {
  SqliteStatement pragma(db, path, "cannot open", "PRAGMA application_id");
  return pragma.step() ? pragma.int64(0) : 0;
}

std::vector<std::string> tableNames(sqlite3* db, const std::string& path) {
  SqliteStatement query(db, path, "cannot open",
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                        "'sqlite_%' ORDER BY name");
  std::vector<std::string> names;
  while (query.step()) names.push_back(query.text(0));
  return names;
}

// A runs table as the workbench makes it (another program may have one of that name too).
bool hasWorkbenchRunsTable(sqlite3* db, const std::string& path) {
  SqliteStatement query(db, path, "cannot open",
                        "SELECT 1 FROM pragma_table_info('runs') WHERE name = 'config_yaml'");
  return query.step();
}

}  // namespace

void requireWorkbenchDatabase(sqlite3* db, const std::string& path) {
  const int64_t id = applicationId(db, path);
  if (id == kWorkbenchApplicationId) return;
  const std::vector<std::string> tables = tableNames(db, path);
  if (id == 0 && (tables.empty() || hasWorkbenchRunsTable(db, path))) return;
  std::string found;
  for (size_t i = 0; i < tables.size() && i < 5; ++i) found += (i ? ", " : "") + tables[i];
  if (tables.size() > 5) found += ", ...";
  throw StoreError(
      "run database '" + path + "' is another program's database (" +
      (found.empty() ? "its application id is " + std::to_string(id) : "its tables: " + found) +
      "); it is left as it is: keep the project in a folder of its own, or move "
      "that file away");
}

void markWorkbenchDatabase(sqlite3* db, const std::string& path) {
  if (applicationId(db, path) == kWorkbenchApplicationId) return;
  const std::string sql = "PRAGMA application_id = " + std::to_string(kWorkbenchApplicationId);
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    throwStoreError(db, path, "cannot mark the database as the workbench's");
  }
}

}  // namespace mrnn::engine
