// How a book::TallyEntry lies in a row of the store's tree table: the key, the move, then one
// column per counted field in the order of BOOKFORGE_COUNTED_FIELDS (counts/counted_fields.h),
// all integers. The column lists, the table's definition and the merge's update clause are
// made from that list, so a new counted field gets its column without an edit here.
//
// Keys: SQLite integers are signed 64-bit, so a Polyglot key is stored as the signed integer
// with the same 64 bits (two's complement): key 0x8000000000000000 is stored as INT64_MIN.
// printf('%016x', key) in the sqlite3 shell prints the Polyglot key. Unsigned key order is
// therefore "key >= 0 ascending, then key < 0 ascending"; scans read it as two ranges.
#pragma once

#include <cstdint>
#include <string>

#include "counts/entry.h"
#include "store/sqlite.h"

namespace bookforge::store {

// The signed integer a key is stored as, and back (see above).
constexpr int64_t key_to_db(uint64_t key) { return static_cast<int64_t>(key); }
constexpr uint64_t key_from_db(int64_t value) { return static_cast<uint64_t>(value); }

// "key, move, white, draws, ...": the row's columns, for SELECT and INSERT.
const std::string& row_columns();
inline constexpr int kRowColumnCount = 2 + counts::kCountedFieldCount;

// "key INTEGER NOT NULL, move INTEGER NOT NULL, ...": the columns of CREATE TABLE tree.
std::string row_definitions();

// The ON CONFLICT (key, move) DO UPDATE assignments that add a row of `excluded` to the row
// stored: sums through add_count (an error past 2^32 - 1, the most a 32-bit TallyEntry field
// carries), 64-bit sums with +, minima with min().
std::string row_merge_assignments();

// Column `column` (0 .. kRowColumnCount - 1) of an entry's row.
int64_t row_value(const counts::TallyEntry& e, int column);

// An entry from columns 0 .. kRowColumnCount - 1 of the current row of `s` (a SELECT of
// row_columns()).
void read_row(const Statement& s, counts::TallyEntry& e);

}  // namespace bookforge::store
