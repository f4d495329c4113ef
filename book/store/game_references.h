// Collects, while `db add` reads, what the store keeps of its games (book/store/game_record.h):
// every game's record, and for every position up to a ply limit its top and recent games.
//
// Each worker's sink appends one PositionGame per position of a game (24 bytes). When a
// worker's list reaches its share of the memory budget it is reduced in place: per position,
// only the games of its top and recent lists stay (most positions near the start are reached
// by many games, so this removes most of the list). What remains is one entry per position
// reached by few games, bounded by the number of positions up to the ply limit, like the
// store's tree itself; if it still fills more than half the share, the share doubles. The
// records (about 100 bytes a game) are kept whole until the add is merged.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "book/store/game_record.h"
#include "pgn/pipeline.h"

namespace bookforge::store {

class GameReferences {
 public:
  // Positions at plies [0, plies) of each game are kept; `memory_budget` is shared by all sinks.
  GameReferences(int plies, uint64_t memory_budget, int workers);
  ~GameReferences();

  // Sinks for one read of input number `input`: each records the games passing through it and
  // hands them on to inner(i).
  pgn::SinkFactory wrap(pgn::SinkFactory inner, int64_t input);

  // After reading: the records, by fingerprint as stored (signed order), one per game.
  std::vector<GameRecord> take_records();
  // After reading: the top and recent games of every position, by (key, fingerprint) as
  // stored (signed order).
  std::vector<PositionGame> take_positions();

 private:
  class Sink;

  int plies_;
  size_t entries_per_sink_;
  std::deque<std::unique_ptr<Sink>> sinks_;
};

// Keeps, of `games` sorted by key, each key's top and recent games (no fingerprint twice per key),
// in (key, fingerprint) order as stored. Exposed for the tests.
void keep_top_and_recent(std::vector<PositionGame>& games);

}  // namespace bookforge::store
