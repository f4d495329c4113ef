// `db add`: read PGN files with the shared pipeline and filters, count them with the same
// bounded-memory tally as `build`, and merge the tally's sorted stream into a store.
//
// Step 1. Check an existing store's integrity. Hash every input file and refuse (unless forced)
//         a file whose bytes the store already holds, the same file given twice, or filters /
//         max-ply / repeat counting that differ from those the store was built with.
// Step 2. Tally all inputs (one pipeline pass per file, so each source knows its games),
//         hashing each one's decompressed content on the way. That content hash is what a
//         source records, so a compressed copy of a file already added (or given twice) is
//         refused too, once it has been read: before anything is written.
// Step 3. Merge the tally's (key, move) stream, the source records and the fingerprints of the
//         games added (counts/duplicate_filter.h: loaded before step 2, so a game the store
//         holds is counted once) in one transaction.
//
// Atomicity: an existing store is changed inside one WAL transaction (a kill at any point
// leaves it as it was, or with everything added); a new store is built under a temporary name
// in the same directory and linked into place when complete. Standard input cannot be hashed
// before it is read: its content is hashed as it is read, and the same content added again is
// refused before anything is written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/tally.h"
#include "pgn/pipeline.h"
#include "store/store.h"

namespace bookforge::store {

struct StoreAddOptions {
  std::string db_path;
  pgn::PipelineOptions pipeline;  // inputs, filters, max-ply, threads, ...
  counts::TallyOptions tally;     // memory budget, spill folder, repeat counting (workers: set here)
  bool force = false;             // add duplicates and mismatched settings anyway
  // Count every copy of a game, also of games the store holds (counts/duplicate_filter.h); the
  // fingerprints of new games are recorded either way.
  bool keep_duplicates = false;
  // Positions up to this many plies of each game keep their top and recent games
  // (store/game_record.h); 0: the store's, or kDefaultGamePlies for a new store.
  int game_plies = 0;
  // Sees each row of the merge as SQLite reads it, inside the write transaction (the
  // crash-safety tests kill the process at an exact row with it).
  std::function<void(uint64_t row)> on_merge_row;
};

struct StoreAddReport {
  bool created = false;  // the store did not exist before
  pgn::ReadStats read;   // summed over all inputs
  counts::TallyStats tally;
  std::vector<SourceRecord> sources;  // what was recorded, one per input
  std::vector<std::string> forced;    // refusals that --force overrode, as messages
  uint64_t rows_merged = 0;           // rows inserted into or added to
  double read_seconds = 0;            // steps 1 and 2
  double merge_seconds = 0;           // step 3
  // Accepted games that were copies of a game read before in this add or held by the store:
  // dropped, unless keep_duplicates.
  uint64_t duplicates = 0;
  // SQLite side files of a deleted store under the new store's name, removed before it was
  // linked in (store/store.h: remove_orphan_side_files).
  std::vector<std::string> removed_side_files;
};

Result<StoreAddReport> store_add(const StoreAddOptions& options);

}  // namespace bookforge::store
