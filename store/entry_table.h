// An entry stream seen from SQL: the eponymous virtual table `entry_stream` reads a
// book::EntryStream row by row, so one INSERT ... SELECT FROM entry_stream ... ON CONFLICT
// statement merges the whole stream. That runs the insert loop inside SQLite's own virtual
// machine: measured on 3M sorted entries it takes about half the time of stepping a prepared
// one-row upsert 3M times (the per-statement reset/bind/cursor costs go away).
//
//   entry_stream (key, move, then the counted fields' columns: store/row.h, then slices)
//
// slices is the blob of the row's counts per slice (store/slice_counts.h), read from
// `slices` of the source as each row is read.
//
// Keys come out as the signed integers the tree stores (store.h). The stream must be in
// strictly ascending (key, move) order (unsigned keys); a stream that is not fails the query.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "counts/entry.h"
#include "store/sqlite.h"

namespace bookforge::store {

// What the virtual table reads from; owned by the Store, which points it at a stream for the
// duration of one merge.
struct EntryTableSource {
  counts::EntryStream* stream = nullptr;
  const std::string* slices = nullptr;  // the current row's slices blob
  std::string error;                    // why the last scan stopped early, if it did
  // Called as the merge statement reads each row (1, 2, ...), while SQLite writes the
  // transaction: the crash-safety tests kill the process at an exact row this way.
  std::function<void(uint64_t row)> on_row;
};

// Registers `entry_stream` on the connection; `source` must outlive it.
Status register_entry_table(Connection& db, EntryTableSource* source);

}  // namespace bookforge::store
