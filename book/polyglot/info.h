// What `bookforge info` reports about a book: its size, and what a walk from the start position
// finds in it (reachable positions, the longest line, moves that are not legal where they are
// reached).
#pragma once

#include <cstdint>
#include <vector>

#include "book/polyglot/reader.h"
#include "chess/types.h"

namespace bookforge::book {

struct BookInfo {
  uint64_t entries = 0;
  uint64_t positions = 0;  // distinct keys
  uint64_t zero_weight_entries = 0;
  uint64_t reachable_positions = 0;  // positions with entries reachable from the start position
  int deepest_reachable = 0;         // plies to the farthest of them along its shortest line
  // Entries of reachable positions whose move is illegal there. A key is reached once, through
  // one board; a book made from games has no such entries unless two positions share a key.
  uint64_t illegal_entries = 0;
  // The longest line of book moves from the start position that never returns to a position
  // already on the line, and the moves of one such line.
  std::vector<chess::Move> longest_line;
};

BookInfo analyse_book(const PolyglotBook& book);

}  // namespace bookforge::book
