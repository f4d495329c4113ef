// Polyglot Zobrist keys: the published 781-entry Random64 table and the from-scratch key.
#pragma once

#include <cstdint>

#include "engine/types.h"

namespace bookforge {

class Board;

namespace zobrist {

// Offsets into the Random64 table, as the Polyglot format defines them.
inline constexpr int kPieceOffset = 0;        // 768 entries: 64 * kind + square
inline constexpr int kCastleOffset = 768;     // 4 entries: K, Q, k, q
inline constexpr int kEnPassantOffset = 772;  // 8 entries: file
inline constexpr int kTurnOffset = 780;       // 1 entry: white to move

extern const uint64_t kRandom64[781];

// Polyglot's piece kind: black pawn 0, white pawn 1, black knight 2, ..., white king 11.
constexpr int polyglot_kind(Piece p) { return 2 * type_of(p) + (color_of(p) == kWhite ? 1 : 0); }

inline uint64_t piece_key(Piece p, Square s) { return kRandom64[kPieceOffset + 64 * polyglot_kind(p) + s]; }

// The xor of the keys of every right in `rights` (a CastlingRight mask; bit i is entry i).
inline uint64_t castling_key(uint8_t rights) {
  uint64_t key = 0;
  for (int i = 0; i < 4; ++i)
    if (rights & (1 << i)) key ^= kRandom64[kCastleOffset + i];
  return key;
}
inline uint64_t en_passant_key(int file) { return kRandom64[kEnPassantOffset + file]; }
inline uint64_t turn_key() { return kRandom64[kTurnOffset]; }

}  // namespace zobrist

// The key computed from nothing but the position (tests compare it with Board::key()).
// The en-passant file counts only when a pawn of the side to move stands beside the pawn that
// just double-stepped (pins do not matter).
uint64_t polyglot_key_from_scratch(const Board& board);

}  // namespace bookforge
