// Walking a book from the start position: breadth first through the book's moves, each
// position (by key) visited once, at its shortest distance from the start. A key alone does
// not give a board; the walk is how book tools get one for every position they can reach.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "chess/board.h"

namespace bookforge::book {

// Fills `moves` with the Polyglot moves the book has for a key (empty: not in the book).
using BookMovesFn = std::function<void(uint64_t key, std::vector<uint16_t>& moves)>;
// Called once per reached position that has book moves.
using VisitFn = std::function<void(const chess::Board& board, int depth)>;
// Called for a book move that is not legal in the reached position (it is not followed).
using IllegalMoveFn = std::function<void(const chess::Board& board, uint16_t move)>;

struct WalkStats {
  uint64_t positions = 0;      // reached positions with book moves
  uint64_t illegal_moves = 0;  // book moves illegal where they were reached
  int max_depth = 0;           // plies from the start to the farthest such position
};

struct WalkOptions {
  chess::Board start;  // the standard start position unless set
  int max_depth = 0;   // positions deeper than this many plies are not visited (0: no limit)
  // The side a one-sided book (built with --side) has no moves for: in its positions every
  // legal move is followed, and those positions are not visited themselves.
  std::optional<chess::Color> pass_through;
};

WalkStats walk_book(const BookMovesFn& moves_of, const VisitFn& visit, const IllegalMoveFn& illegal = {},
                    const WalkOptions& options = {});

}  // namespace bookforge::book
