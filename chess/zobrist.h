// Polyglot Zobrist keys: the published 781-entry Random64 table and the lookups make_move uses.
// Knows nothing of the board: the key of a whole position is polyglot_key_from_scratch
// (chess/board.h).
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace bookforge::chess::zobrist {

// Offsets into the Random64 table, as the Polyglot format defines them.
inline constexpr int kPieceOffset = 0;        // 768 entries: 64 * kind + square
inline constexpr int kCastleOffset = 768;     // 4 entries: K, Q, k, q
inline constexpr int kEnPassantOffset = 772;  // 8 entries: file
inline constexpr int kTurnOffset = 780;       // 1 entry: white to move

extern const uint64_t kRandom64[781];

// Polyglot's piece kind: black pawn 0, white pawn 1, black knight 2, ..., white king 11.
constexpr int polyglot_kind(Piece p) { return 2 * type_of(p) + (color_of(p) == kWhite ? 1 : 0); }

// kRandom64 rearranged for make_move, which looks keys up several times a ply: piece keys
// indexed by our Piece value directly (no kind arithmetic; the rows of the unused values 6, 7,
// 14 and kNoPiece are zero, so "capturing" an empty square may xor its key in for free), and
// castling keys by the whole 4-bit rights mask.
extern const std::array<std::array<uint64_t, 64>, 16> kPieceKeys;
extern const std::array<uint64_t, 16> kCastlingKeys;

inline uint64_t piece_key(Piece p, Square s) { return kPieceKeys[p][s]; }

// The xor of the keys of every right in `rights` (a CastlingRight mask; bit i is entry i).
// Chess960, where Polyglot says nothing: a side has its "king side" entry (K, k) while it may
// castle with a rook on the h side of its king, and its "queen side" entry (Q, q) with a rook on
// the a side, whatever the files of the king and the rooks -- python-chess's rule, so that books
// agree with the books it makes and reads. In standard chess this is Polyglot's own rule.
inline uint64_t castling_key(uint8_t rights) { return kCastlingKeys[rights & 15]; }
inline uint64_t en_passant_key(int file) { return kRandom64[kEnPassantOffset + file]; }
inline uint64_t turn_key() { return kRandom64[kTurnOffset]; }

}  // namespace bookforge::chess::zobrist
