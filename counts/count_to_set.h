// `bookforge count`: PGN files in, a set of counts out (counts/counts_set.h). The games are
// read and tallied exactly as `build` reads and tallies them (pgn::read_games, the duplicate
// filter, book::Tally), keeping everything any book needs from them (the players' ratings), or,
// counted for a store, everything a store needs too: the opponents' ratings and the store's
// slices. A book's counts are the smaller and the faster made (no slices: most (key, move)
// pairs of a game add to an entry already there), so that is the default. The counts are cut
// into K key ranges, one file each, written on as many threads as the tally has partitions
// ready.
//
// With a part i/N, only the games that start in the i-th of N equal byte ranges of each input's
// decompressed stream are counted: the parts of an input tile it, so every game is counted in
// exactly one part. The decompressed length is measured first (a pass that only decompresses
// and hashes); the games are then split off from the start, but only the part's are parsed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/counts_file.h"
#include "counts/tally.h"
#include "pgn/pipeline.h"

namespace bookforge::counts {

// What the counts are for: a book needs the players' ratings only; a store needs its slices
// and the opponents' ratings too (counts/counts_file.h: the header's ratings lines and slices).
enum class CountsFor { kBook, kStore };

struct CountRequest {
  pgn::PipelineOptions pipeline;  // inputs, filters, max_ply, threads, progress
  CountsFor counts_for = CountsFor::kBook;
  bool count_repeats = false;
  bool keep_duplicates = false;  // count every copy of a game (counts/duplicate_filter.h)
  InputPart part;                // of every input
  std::vector<uint64_t> skip;    // fingerprints of games not to count, ascending (--skip-games)
  TallyOptions tally;            // memory budget and spill folder ("": the output folder)
  std::string output;            // the set's folder: new or empty
  uint32_t partitions = 1;       // K, a power of two
};

struct CountReport {
  CountsHeader header;  // the set's (range 0)
  pgn::ReadStats read;
  TallyStats tally;
  uint64_t bytes = 0;  // of the range files
  double read_seconds = 0;
  double write_seconds = 0;
};

Result<CountReport> count_to_set(const CountRequest& request);

}  // namespace bookforge::counts
