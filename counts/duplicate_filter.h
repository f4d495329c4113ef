// Duplicate games counted once: a sink wrapper that passes on the first copy of each game
// (by its fingerprint, counts/game_fingerprint.h) and drops the others. `build` puts it in
// front of the tally when reading PGN, unless the rules keep duplicates (as the polyglot
// preset does: make-book counts every copy); `db add` does too, after loading the fingerprints of
// every game the store already holds, so a game added months ago in another file is not
// counted again.
//
// Copies add identical counts (the fingerprint covers everything counted), so which copy
// passes -- whichever worker gets there first -- never changes a book or a store's counts.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "counts/fingerprint_set.h"
#include "pgn/game.h"
#include "pgn/pipeline.h"

namespace bookforge::counts {

class DuplicateFilter {
 public:
  enum class Copies { kDrop, kKeep };  // kKeep passes copies on but still counts them
  explicit DuplicateFilter(Copies copies);
  ~DuplicateFilter();

  // A game known from before (a store's): its copies count as duplicates too.
  void remember(uint64_t fingerprint) { seen_.insert(fingerprint); }

  // Sinks for pgn::read_games: sink(i) passes the games it lets through to inner(i). Each
  // call of the returned factory makes a new sink; the filter keeps them all, so `wrap` may
  // serve several reads (one per input) and the totals cover all of them.
  pgn::SinkFactory wrap(pgn::SinkFactory inner);

  // Copies seen so far over all sinks (dropped, unless kKeep). Read once the workers are done.
  uint64_t duplicates() const;

 private:
  class Sink;

  Copies copies_;
  FingerprintSet seen_;
  std::deque<std::unique_ptr<Sink>> sinks_;
};

}  // namespace bookforge::counts
