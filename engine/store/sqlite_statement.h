#pragma once

#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace mrnn::engine {

// One prepared statement, finalized on destruction. Parameters are numbered from 1 and
// columns from 0, as in SQLite. Every failure throws StoreError naming the database path
// and the action given at construction ("cannot append metrics").
class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, const std::string& path, std::string action, const char* sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& bind(int index, int64_t value);
  // NaN is stored as NULL by SQLite itself; optional fields read NULL back as nullopt.
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, const std::string& value);
  SqliteStatement& bind(int index, const std::optional<double>& value);
  SqliteStatement& bindNull(int index);
  // Empty text is stored as NULL (an optional text field such as ended_at).
  SqliteStatement& bindTextOrNull(int index, const std::string& value);

  // Advances to the next row: true when one is available, false when done.
  bool step();
  // Runs a statement that returns no rows.
  void run();
  // Makes the statement ready to run again with new parameters.
  void reset();

  bool isNull(int column) const;
  int64_t int64(int column) const;
  double real(int column) const;  // NULL reads as NaN (a NaN metric was stored as NULL)
  std::optional<double> optionalReal(int column) const;
  std::string text(int column) const;  // NULL reads as ""

 private:
  sqlite3* db_;
  const std::string& path_;
  std::string action_;
  sqlite3_stmt* statement_ = nullptr;
};

}  // namespace mrnn::engine
