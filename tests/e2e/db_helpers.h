// Helpers shared by the `bookforge db` end-to-end tests: reading a store with plain SQL (not
// through bookforge's own Store class, so the tests check the file itself).
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "store/page_checksum.h"
#include "support/test_support.h"

namespace bookforge::test {

// Every result row of `sql` as "v1|v2|...\n" lines; "ERROR: ..." if the query fails. Through
// the page checksums, so that a test's own changes to a store are not taken for damage.
inline std::string sql_rows(const std::filesystem::path& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, store::checksum_vfs_name()) != SQLITE_OK) {
    std::string e = std::string("ERROR: ") + sqlite3_errmsg(db);
    sqlite3_close(db);
    return e;
  }
  std::string out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    out = std::string("ERROR: ") + sqlite3_errmsg(db);
  } else {
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        if (i) out += '|';
        const unsigned char* text = sqlite3_column_text(stmt, i);
        out += text ? reinterpret_cast<const char*>(text) : "NULL";
      }
      out += '\n';
    }
    if (rc != SQLITE_DONE) out += std::string("ERROR: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// The counts' columns of the tree table, in their order.
inline constexpr const char* kTreeCounts =
    "key, move, white, draws, black, games, rating_sum, opponent_rating_sum, rated, opponents_rated, "
    "first_ply";

// The whole tree table in primary-key order, the slices blob in hex.
inline std::string dump_tree(const std::filesystem::path& db_path) {
  return sql_rows(db_path,
                  std::string("SELECT ") + kTreeCounts + ", hex(slices) FROM tree ORDER BY key, move");
}

inline std::filesystem::path sample(const std::string& name) { return source_dir() / "data-samples" / name; }

// `bookforge db add INPUTS --db DB MORE...`, quietly.
inline CommandResult db_add_files(const std::filesystem::path& db, const std::vector<std::string>& inputs,
                                  const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"db", "add", "--db", db.string(), "--progress", "never"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

}  // namespace bookforge::test
