// Looking a position up in a book, as an engine does: its entries turned into legal moves, and
// a move chosen from them by weight.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "book/polyglot/reader.h"
#include "chess/board.h"

namespace bookforge::book {

struct ProbedMove {
  PolyglotEntry entry;
  chess::Move move;  // Move::none() if the stored move is not legal here (a damaged book or a key collision)
};

// The entries for the board's key in file order (heaviest first in a well-made book).
std::vector<ProbedMove> probe_book(const PolyglotBook& book, const chess::Board& board);

// A legal move chosen with probability proportional to its weight, using `random` (any 64-bit
// value, e.g. from a seeded generator) to decide; or the heaviest (the first in file order on
// ties) with `best`. Entries of weight 0 are never chosen. nullopt if no move qualifies.
std::optional<ProbedMove> pick_move(const std::vector<ProbedMove>& moves, uint64_t random, bool best);

// The move a Polyglot entry stores, as from-square, to-square and promotion ("e1h1", "a7a8q"),
// readable even when it is not legal in any position at hand.
std::string polyglot_move_text(uint16_t move);

}  // namespace bookforge::book
