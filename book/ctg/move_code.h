// A CTG move is one byte. Each code names a piece of the side to move (its type, and which one:
// the first, second, ... met walking the stored board a1, a2, ..., a8, b1, ..., h8) and how far
// it goes forward and to the right, both counted modulo 8 (a rook "7 to the right" on the h-file
// goes one to the left). Castling is the king going two to the right (O-O) or left (O-O-O); a
// pawn reaching the last rank becomes a queen (the format has no under-promotion). The codes
// are those of the public descriptions of the format; 166 of the 256 are used.
#pragma once

#include <cstdint>
#include <optional>

#include "book/ctg/board_code.h"
#include "chess/types.h"

namespace bookforge::book {

struct CtgStoredMove {
  chess::Square from;
  chess::Square to;
};

// Where `code` moves on the stored board, or nullopt when no move has that code or the piece it
// names is not on the board.
std::optional<CtgStoredMove> decode_ctg_move(uint8_t code, const CtgBoard& board);

}  // namespace bookforge::book
