// Attack tables: leapers by lookup, sliders by magic bitboards (initialised at load time).
#pragma once

#include "engine/types.h"

namespace bookforge {

Bitboard pawn_attacks(Color c, Square s);
Bitboard knight_attacks(Square s);
Bitboard king_attacks(Square s);
Bitboard bishop_attacks(Square s, Bitboard occupied);
Bitboard rook_attacks(Square s, Bitboard occupied);
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
// Attacks of a non-pawn piece type.
Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied);

// Squares strictly between a and b on a shared line (empty if they share none).
Bitboard between_bb(Square a, Square b);
// The full line through a and b (empty if they share none).
Bitboard line_bb(Square a, Square b);

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}

}  // namespace bookforge
