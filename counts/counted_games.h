// The games a `count` hands to its tally, remembered by fingerprint (counts/game_fingerprint.h)
// for the set's game list, less the games of a skip list (count --skip-games: another set
// already counts them). A sink wrapper in front of the duplicate filter and the tally.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "counts/game_list_file.h"
#include "pgn/game.h"
#include "pgn/pipeline.h"

namespace bookforge::counts {

class CountedGames {
 public:
  // `skip`: fingerprints ascending (a GameList's).
  explicit CountedGames(std::vector<uint64_t> skip);
  ~CountedGames();

  // Sinks for pgn::read_games: sink(i) passes to inner(i) every game not to be skipped.
  pgn::SinkFactory wrap(pgn::SinkFactory inner);

  // Once the workers are done: the games passed on, each once, ascending; and the games skipped.
  std::vector<uint64_t> fingerprints() const;
  uint64_t skipped() const;

 private:
  class Sink;

  std::vector<uint64_t> skip_;
  std::deque<std::unique_ptr<Sink>> sinks_;
};

}  // namespace bookforge::counts
