// `db add --from-counts SETS`: a store loaded from sets of counts made by `count --for store`
// (counts/counts_set.h, store/set_games.h) instead of PGN, equal for everything a user can see
// to the store `db add` makes from the PGN the sets counted, with the same flags:
//
// - the rows are the sets' entries summed (their slices kept);
// - one source record per input, in the order the inputs first appear in the sets (the order
//   `db add` would be given them): its name as first given, its file's size, its content hash,
//   and its games summed over its parts. An input counted in parts (--part i/N) needs every part,
//   else the error names the missing one;
// - the game records: of a game in several sets (counted with --keep-duplicates), the record of
//   its first copy by (source, number in the source); numbers count from an input's start, also
//   in its later parts;
// - the top and recent games of the positions: every set's lists reduced once more.
//
// Refused, with nothing written: sets counted for a book; sets that cannot be added up (other
// options, an input counted twice, games counted in two sets: counts/counts_set.h); sets whose
// games were left out with --skip-games but that are given in another order than their inputs';
// games the store already holds (their counts cannot be taken out of the sets' rows: count
// again with --skip-games); and, as `db add` refuses them unless --force: inputs the store
// holds, and other filters / max-ply / repeat counting than the store's.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/add.h"

namespace bookforge::store {

struct StoreFromCountsOptions {
  std::string db_path;
  std::vector<std::string> sets;
  bool force = false;  // as db add's --force
  // Given on the command line: they must be what the sets were counted with.
  std::optional<bool> keep_duplicates;
  int game_plies = 0;  // 0: not given
  std::function<void(uint64_t row)> on_merge_row;
};

Result<StoreAddReport> store_add_from_counts(const StoreFromCountsOptions& options);

}  // namespace bookforge::store
