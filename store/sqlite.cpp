#include "store/sqlite.h"

#include <sqlite3.h>

#include "store/page_checksum.h"

namespace bookforge::store {
namespace {

// A damaged file is named as such, with what to do, whatever the statement was doing: SQLite's
// own words ("disk I/O error", "database disk image is malformed") do not say the file is bad.
std::string damage(sqlite3* db) {
  switch (sqlite3_extended_errcode(db)) {
    case SQLITE_IOERR_DATA:
      return "damaged store: page " + std::to_string(last_bad_page()) +
             " fails its checksum (the file was changed outside bookforge)";
    case SQLITE_CORRUPT:
    case SQLITE_CORRUPT_INDEX:
    case SQLITE_CORRUPT_SEQUENCE:
    case SQLITE_CORRUPT_VTAB:
      return std::string("damaged store: ") + sqlite3_errmsg(db);
    default:
      return {};
  }
}

Error sqlite_error(const std::string& path, std::string_view what, sqlite3* db) {
  std::string message = path + ": " + std::string(what);
  if (!db) return Error{std::move(message)};
  if (std::string damaged = damage(db); !damaged.empty())
    return Error{path + ": " + damaged +
                 "; restore it from a copy, or make it again with `bookforge db add`"};
  return Error{message + ": " + sqlite3_errmsg(db)};
}

}  // namespace

Result<Connection> Connection::open(const std::string& path, Mode mode) {
  int flags = SQLITE_OPEN_NOMUTEX;  // one connection per thread; no need for SQLite's locks
  switch (mode) {
    case Mode::kReadOnly:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case Mode::kReadWrite:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case Mode::kCreate:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
  }
  Connection c;
  c.path_ = path;
  // Every store is read and written through the page checksums (store/page_checksum.h).
  int rc = sqlite3_open_v2(path.c_str(), &c.db_, flags, checksum_vfs_name());
  if (rc != SQLITE_OK) {
    Error e = c.db_ ? sqlite_error(path, "cannot open", c.db_) : Error{path + ": cannot open: out of memory"};
    return e;
  }
  sqlite3_extended_result_codes(c.db_, 1);
  // Another writer (a concurrent db add) holds the lock only for its final merge: wait for it.
  sqlite3_busy_timeout(c.db_, 60'000);
  return c;
}

Connection::Connection(Connection&& other) noexcept : db_(other.db_), path_(std::move(other.path_)) {
  other.db_ = nullptr;
}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    other.db_ = nullptr;
  }
  return *this;
}

Connection::~Connection() {
  if (db_) sqlite3_close_v2(db_);
}

Status Connection::close() {
  if (!db_) return ok_status();
  if (sqlite3_close(db_) != SQLITE_OK) return error("cannot close");
  db_ = nullptr;
  return ok_status();
}

Error Connection::error(std::string_view what) const { return sqlite_error(path_, what, db_); }

Status Connection::exec(std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string detail = message ? message : "unknown error";
    sqlite3_free(message);
    if (!damage(db_).empty()) return error("cannot run a statement");
    return Error{path_ + ": " + detail};
  }
  return ok_status();
}

Result<Statement> Connection::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK)
    return error("cannot prepare a query");
  return Statement(stmt, path_);
}

Result<int64_t> Connection::query_int(std::string_view sql) {
  Result<Statement> stmt = prepare(sql);
  if (!stmt) return stmt.error();
  Result<bool> row = stmt->step();
  if (!row) return row.error();
  if (!*row) return Error{path_ + ": query returned no row: " + std::string(sql)};
  return stmt->column_int(0);
}

int64_t Connection::changes() const { return sqlite3_changes64(db_); }

bool Connection::in_transaction() const { return db_ && !sqlite3_get_autocommit(db_); }

Statement::Statement(Statement&& other) noexcept : stmt_(other.stmt_), path_(std::move(other.path_)) {
  other.stmt_ = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (stmt_) sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    path_ = std::move(other.path_);
    other.stmt_ = nullptr;
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

void Statement::bind(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }

void Statement::bind(int index, std::string_view text) {
  sqlite3_bind_text(stmt_, index, text.data(), int(text.size()), SQLITE_TRANSIENT);
}

void Statement::bind_blob(int index, std::string_view bytes) {
  // An empty view may have no data pointer, which SQLite would bind as NULL.
  sqlite3_bind_blob(stmt_, index, bytes.empty() ? "" : bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
}

void Statement::bind_null(int index) { sqlite3_bind_null(stmt_, index); }

Result<bool> Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Error e = sqlite_error(path_, "query failed", sqlite3_db_handle(stmt_));
  sqlite3_reset(stmt_);
  return e;
}

Status Statement::run() {
  Result<bool> row = step();
  sqlite3_reset(stmt_);
  if (!row) return row.error();
  return ok_status();
}

void Statement::reset() { sqlite3_reset(stmt_); }

int64_t Statement::column_int(int index) const { return sqlite3_column_int64(stmt_, index); }

std::string Statement::column_text(int index) const {
  const unsigned char* text = sqlite3_column_text(stmt_, index);
  return text ? std::string(reinterpret_cast<const char*>(text), size_t(sqlite3_column_bytes(stmt_, index)))
              : std::string();
}

std::string_view Statement::column_blob(int index) const {
  const void* data = sqlite3_column_blob(stmt_, index);
  return data ? std::string_view(static_cast<const char*>(data), size_t(sqlite3_column_bytes(stmt_, index)))
              : std::string_view();
}

bool Statement::column_is_null(int index) const { return sqlite3_column_type(stmt_, index) == SQLITE_NULL; }

}  // namespace bookforge::store
