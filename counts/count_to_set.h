// `bookforge count`: PGN files in, a set of counts out (counts/counts_set.h). The games are
// read and tallied exactly as `build` reads and tallies them (pgn::read_games, the duplicate
// filter, book::Tally), keeping what the book they are for needs (the players' ratings only for
// a book weighted by rating), or, counted for a store, everything a store needs: the ratings of
// both sides and the store's slices. A book's counts are the smaller and the faster made (no
// slices: most (key, move) pairs of a game add to an entry already there; no ratings: a
// narrower table slot), so that is the default. The counts are cut into K key ranges, one file
// each, written on as many threads as the tally has partitions ready.
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

// What a set keeps of its games beyond their counts, in files of its own: counted for a store,
// the store's (store/set_games.h), which counts/ knows nothing of. Its sinks see the games the
// set counts, in the one read of its inputs.
class SetExtras {
 public:
  virtual ~SetExtras() = default;
  // Sinks in front of --skip-games (every game read passes, copies and skipped games too) and
  // behind the duplicate filter (the games counted). A game's input is its `file`, which points
  // into `inputs` (pgn::ReplayedGame::file).
  virtual pgn::SinkFactory wrap_read(pgn::SinkFactory inner, const std::vector<std::string>& inputs) = 0;
  virtual pgn::SinkFactory wrap_counted(pgn::SinkFactory inner, const std::vector<std::string>& inputs) = 0;
  // After the ranges, before the game list that completes the set: writes its files into
  // `dir`; `skipped` are the fingerprints of --skip-games (ascending). The bytes written.
  virtual Result<uint64_t> write(const std::string& dir, const CountsHeader& header,
                                 const std::vector<uint64_t>& skipped) = 0;
};

// What the counts are for: a book needs at most the players' ratings; a store needs its slices
// and the opponents' ratings too (counts/counts_file.h: the header's ratings lines and slices).
enum class CountsFor { kBook, kStore };

struct CountRequest {
  pgn::PipelineOptions pipeline;  // inputs, filters, max_ply, threads, progress
  CountsFor counts_for = CountsFor::kBook;
  bool ratings = false;  // a book's: keep the players' ratings (a store's counts always do)
  bool count_repeats = false;
  bool keep_duplicates = false;  // count every copy of a game (counts/duplicate_filter.h)
  InputPart part;                // of every input
  std::vector<uint64_t> skip;    // fingerprints of games not to count, ascending (--skip-games)
  TallyOptions tally;            // memory budget and spill folder ("": the output folder)
  std::string output;            // the set's folder: new or empty
  uint32_t partitions = 1;       // K, a power of two
  SetExtras* extras = nullptr;   // more files of the set, if any
};

struct CountReport {
  CountsHeader header;  // the set's (range 0)
  pgn::ReadStats read;
  TallyStats tally;
  uint64_t bytes = 0;  // of the range files and the extras' files
  double read_seconds = 0;
  double write_seconds = 0;
};

Result<CountReport> count_to_set(const CountRequest& request);

}  // namespace bookforge::counts
