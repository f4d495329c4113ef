// What every add does around its reading, shared by `db add` from PGN (store/add.h) and from
// sets of counts (store/add_from_counts.h): the store opened and checked, the refusals (an input
// the store holds, the same input twice, other counting settings), and the write -- the rows,
// the source records and the games in one transaction for an existing store, or a new store
// made under a temporary name and linked into place when complete.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/content_hash.h"
#include "base/result.h"
#include "counts/entry.h"
#include "store/add.h"
#include "store/store.h"

namespace bookforge::store {

// The store an add writes to: opened and checked when it exists (its integrity: adding to a
// damaged store would bury the damage), else a folder it can be made in. Nullopt for a new store.
Result<std::optional<Store>> open_store_to_add(const std::string& db_path);

// An input as the refusals know it.
struct AddedInput {
  std::string name;
  std::optional<FileDigest> digest;   // of the file's bytes; absent for standard input
  std::optional<FileDigest> content;  // of its decompressed bytes, once read (not for stdin)
  // The hashes this input is known by: its bytes, and its content when that differs.
  std::vector<std::string> hashes() const;
};

// Every reason to refuse this add (`store` null for a new store); each is overridden by --force.
Result<std::vector<std::string>> add_refusals(Store* store, const std::vector<AddedInput>& inputs,
                                              const CountingSettings& settings);
// The error for refusals not forced.
Error refused(const std::vector<std::string>& reasons);
// Refusals found once more is known: an error unless forced; forced ones not reported yet join
// report.forced.
Status accept_refusals(const std::vector<std::string>& reasons, bool force, StoreAddReport& report);

// The plies whose positions keep their games: the store's, which a different `given` (0: none
// given) may not change (its lists would mix two depths); for a new store `given`, or
// kDefaultGamePlies.
Result<int> game_plies_for(Store* store, int given);

// The games an add records: their records (each game once, its source the index of its source
// record in the add), the top and recent games of their positions, and how many of the games
// are new to the store (their records must all go in). Each stream is asked for once.
struct GamesToAdd {
  int plies = 0;
  std::function<Result<std::unique_ptr<GameRecordStream>>()> records;
  std::function<Result<std::unique_ptr<PositionGameStream>>()> positions;
  uint64_t new_games = 0;
};

struct AddWrite {
  std::string db_path;
  std::optional<Store>* existing = nullptr;  // as open_store_to_add made it
  counts::EntryStream* entries = nullptr;    // the rows, in (key, move, slice) order
  std::vector<SourceRecord> sources;
  GamesToAdd games;
  CountingSettings settings;
  bool force = false;
  // An existing store's refusals again, under its write lock: another add may have committed
  // the same input since they were first asked.
  std::function<Result<std::vector<std::string>>(Store& store)> refusals_again;
  std::function<void(uint64_t row)> on_merge_row;
};

// Writes everything (see the header comment): report.rows_merged, forced, removed_side_files.
Status write_add(AddWrite& write, StoreAddReport& report);

}  // namespace bookforge::store
