// Finds the plies of one game that repeat an earlier (key, move) of the same game, so that a
// game counts once for each (position, move) it played however often it played it.
//
// A small open-addressing set sized for the game, stamped with a generation number instead of
// being cleared between games: clearing would cost more than the lookups for short games.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pgn/game.h"

namespace bookforge::counts {

class RepeatFilter {
 public:
  // One flag per ply: 1 if an earlier ply of `plies` has the same key and move.
  const uint8_t* mark(std::span<const pgn::PlyRecord> plies);

 private:
  struct Slot {
    uint64_t key = 0;
    uint16_t move = 0;
    uint32_t generation = 0;  // the slot is empty unless this equals generation_
  };
  std::vector<Slot> slots_;
  std::vector<uint8_t> flags_;
  uint32_t generation_ = 0;
};

}  // namespace bookforge::counts
