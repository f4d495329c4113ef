// Upcoming repetitions: can the side to move, with one reversible move, bring about a position
// that already stands on the current line? Then it can at least force a draw, whatever a
// transposition-table entry reached through another move order says.
//
// A reversible move of piece p from a to b changes the Polyglot key by
// piece_key(p, a) ^ piece_key(p, b) ^ turn: the table below maps that difference back to the
// move, so one lookup per earlier position decides.
#pragma once

#include <cstdint>

#include "chess/board.h"

namespace bookforge::engine {

// True if a non-capturing move of a knight, bishop, rook, queen or king of the side to move
// turns `board` into the position with key `earlier_key` (a position of the current line, so
// legal, with the same castling rights and en-passant state: the keys differ by that move).
bool reaches_in_one_move(const chess::Board& board, uint64_t earlier_key);

}  // namespace bookforge::engine
