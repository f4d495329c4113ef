// A thin layer over the SQLite C API for the store: a connection and prepared statements
// that own their handles and report failures as Error values naming the database file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace bookforge::store {

class Statement;

class Connection {
 public:
  enum class Mode { kReadOnly, kReadWrite, kCreate };

  static Result<Connection> open(const std::string& path, Mode mode);

  Connection() = default;
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs one or more statements that return no rows of interest.
  Status exec(std::string_view sql);
  Result<Statement> prepare(std::string_view sql);
  // The single integer the query returns (for PRAGMAs and counts); an error if it returns no row.
  Result<int64_t> query_int(std::string_view sql);

  bool in_transaction() const;
  // Rows inserted, updated or deleted by the last statement.
  int64_t changes() const;
  // For what the wrapper does not cover (registering virtual tables).
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }
  // "<path>: <what>: <sqlite's message>", the form every store error takes.
  Error error(std::string_view what) const;
  Status close();

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement() = default;
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQLite.
  void bind(int index, int64_t value);
  void bind(int index, std::string_view text);
  void bind_blob(int index, std::string_view bytes);
  void bind_null(int index);

  // Advances to the next row: true when a row is available, false when done.
  Result<bool> step();
  // Runs a statement that returns no rows and resets it for the next bindings.
  Status run();
  void reset();

  // Columns are 0-based, as in SQLite.
  int64_t column_int(int index) const;
  std::string column_text(int index) const;
  // A BLOB column's bytes, valid until the statement steps, resets or reads the column again.
  std::string_view column_blob(int index) const;
  bool column_is_null(int index) const;

 private:
  friend class Connection;
  Statement(sqlite3_stmt* stmt, std::string path) : stmt_(stmt), path_(std::move(path)) {}

  sqlite3_stmt* stmt_ = nullptr;
  std::string path_;  // for error messages; the statement outlives moves of its Connection
};

}  // namespace bookforge::store
