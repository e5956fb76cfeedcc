#include "engine/store/sqlite_statement.h"

#include <sqlite3.h>

#include <limits>
#include <utility>

#include "engine/store/sqlite_error.h"

namespace mrnn::engine {

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& path, std::string action,
                                 const char* sql)
    : db_(db), path_(path), action_(std::move(action)) {
  if (sqlite3_prepare_v2(db_, sql, -1, &statement_, nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement_);
    statement_ = nullptr;
    throwStoreError(db_, path_, action_);
  }
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK) {
    throwStoreError(db_, path_, action_);
  }
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (sqlite3_bind_double(statement_, index, value) != SQLITE_OK) {
    throwStoreError(db_, path_, action_);
  }
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::string& value) {
  // SQLITE_TRANSIENT: SQLite copies the text, so temporaries may be bound safely.
  if (sqlite3_bind_text64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT,
                          SQLITE_UTF8) != SQLITE_OK) {
    throwStoreError(db_, path_, action_);
  }
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bindNull(index);
}

SqliteStatement& SqliteStatement::bindNull(int index) {
  if (sqlite3_bind_null(statement_, index) != SQLITE_OK) throwStoreError(db_, path_, action_);
  return *this;
}

SqliteStatement& SqliteStatement::bindTextOrNull(int index, const std::string& value) {
  return value.empty() ? bindNull(index) : bind(index, value);
}

bool SqliteStatement::step() {
  const int result = sqlite3_step(statement_);
  if (result == SQLITE_ROW) return true;
  if (result == SQLITE_DONE) return false;
  throwStoreError(db_, path_, action_);
}

void SqliteStatement::run() {
  while (step()) {
  }
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

bool SqliteStatement::isNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int64_t SqliteStatement::int64(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::real(int column) const {
  if (isNull(column)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(statement_, column);
}

std::optional<double> SqliteStatement::optionalReal(int column) const {
  if (isNull(column)) return std::nullopt;
  return sqlite3_column_double(statement_, column);
}

std::string SqliteStatement::text(int column) const {
  const auto* bytes = sqlite3_column_text(statement_, column);
  if (bytes == nullptr) return {};
  const int size = sqlite3_column_bytes(statement_, column);
  return std::string(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
}

}  // namespace mrnn::engine
