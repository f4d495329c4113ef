// Attack tables: leapers by lookup, sliders by magic bitboards (initialised at load time).
//
// Slider lookups index a shared attack table by the relevant occupancy of the square: with
// BMI2 the index is pext(occupied, mask); without it, the classic "fancy magic" product
// ((occupied & mask) * magic) >> shift, with magics found at start-up by a fixed-seed search.
// The lookups are inline because move generation and SAN resolution call them in their
// innermost loops.
//
// The library and every file that includes this header must agree on the indexing, so the
// choice is BOOKFORGE_PEXT: a usage requirement of the installed library (0 for the portable
// package, whatever the consumer's -march), and otherwise the compiler's own target.
#pragma once

#if !defined(BOOKFORGE_PEXT)
#if defined(__BMI2__)
#define BOOKFORGE_PEXT 1
#else
#define BOOKFORGE_PEXT 0
#endif
#endif

#if BOOKFORGE_PEXT
#include <immintrin.h>
#endif

#include <array>

#include "chess/types.h"

namespace bookforge::chess {

namespace attacks_detail {

struct SliderEntry {
  Bitboard mask;          // relevant occupancy: the rays without their last square
  Bitboard magic;         // unused with BMI2
  const Bitboard* table;  // this square's slice of the shared attack table
  unsigned shift;         // 64 - popcount(mask); unused with BMI2

  unsigned index(Bitboard occupied) const {
#if BOOKFORGE_PEXT
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

// Filled by a static initialiser that runs before any other (init_priority), so boards built
// by other translation units' static initialisers can already use them.
extern SliderEntry bishop_entries[64];
extern SliderEntry rook_entries[64];

// Computed at compile time.
extern const std::array<std::array<Bitboard, 64>, 2> kPawnAttacks;
extern const std::array<Bitboard, 64> kKnightAttacks;
extern const std::array<Bitboard, 64> kKingAttacks;
extern const std::array<std::array<Bitboard, 64>, 64> kBetween;
extern const std::array<std::array<Bitboard, 64>, 64> kLine;
extern const std::array<std::array<Bitboard, 64>, 16> kPseudoAttacks;  // by Piece value

}  // namespace attacks_detail

inline Bitboard pawn_attacks(Color c, Square s) { return attacks_detail::kPawnAttacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return attacks_detail::kKnightAttacks[s]; }
inline Bitboard king_attacks(Square s) { return attacks_detail::kKingAttacks[s]; }
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const attacks_detail::SliderEntry& e = attacks_detail::bishop_entries[s];
  return e.table[e.index(occupied)];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const attacks_detail::SliderEntry& e = attacks_detail::rook_entries[s];
  return e.table[e.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
// Attacks of a non-pawn piece type.
inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case kKnight:
      return knight_attacks(s);
    case kBishop:
      return bishop_attacks(s, occupied);
    case kRook:
      return rook_attacks(s, occupied);
    case kQueen:
      return queen_attacks(s, occupied);
    case kKing:
      return king_attacks(s);
    default:
      return 0;
  }
}

// Squares strictly between a and b on a shared line (empty if they share none).
inline Bitboard between_bb(Square a, Square b) { return attacks_detail::kBetween[a][b]; }
// The full line through a and b (empty if they share none).
inline Bitboard line_bb(Square a, Square b) { return attacks_detail::kLine[a][b]; }

// The squares a piece on `s` attacks on an empty board (for a pawn, its captures).
inline Bitboard pseudo_attacks(Piece p, Square s) { return attacks_detail::kPseudoAttacks[p][s]; }

// Whether a bishop, rook or queen on `from` attacks `to`: by its empty-board rays and the
// squares between, without touching the (much larger) slider tables. For a few known pieces
// this is cheaper than an attack-set lookup from the target.
inline bool slider_reaches(PieceType pt, Square from, Square to, Bitboard occupied) {
  return (pseudo_attacks(make_piece(kWhite, pt), from) & square_bb(to)) && !(between_bb(from, to) & occupied);
}

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square msb(Bitboard b) { return Square(63 - __builtin_clzll(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Rank and file masks, and the whole-board shift used by the pawn generators.
inline constexpr Bitboard kFileABB = 0x0101010101010101ULL;
inline constexpr Bitboard kFileHBB = kFileABB << 7;
inline constexpr Bitboard kRank1BB = 0xFFULL;
constexpr Bitboard rank_bb(int rank) { return kRank1BB << (8 * rank); }
constexpr Bitboard file_bb(int file) { return kFileABB << file; }
// Rank `r` as seen from colour c's side of the board (relative_rank_bb(kBlack, 0) is rank 8).
constexpr Bitboard relative_rank_bb(Color c, int r) { return rank_bb(c == kWhite ? r : 7 - r); }

}  // namespace bookforge::chess
