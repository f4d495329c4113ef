// The Polyglot move encoding, as a book stores a move (a big-endian u16 in each entry):
//
//   15 | 14 13 12 | 11 10 9 | 8 7 6 | 5 4 3 | 2 1 0
//    0 |  promo   | from row| from  | to row| to file
//                             file
//
// promo: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen; castling is stored as king takes rook.
// The low 12 bits are laid out exactly like Move's squares, so encoding only rewrites the top
// nibble.
#pragma once

#include <cstdint>

#include "chess/board.h"

namespace bookforge::chess {

// Inline: book building converts every recorded ply.
inline uint16_t move_to_polyglot(Move m) {
  const uint16_t squares = m.raw() & 0x0FFF;
  if (m.kind() != Move::kPromotion) return squares;
  return uint16_t(squares | ((m.promotion() - kKnight + 1) << 12));
}

// The legal move this Polyglot move denotes here, or Move::none() (chess/notation.cpp).
Move polyglot_to_move(const Board& board, uint16_t pg);

}  // namespace bookforge::chess
