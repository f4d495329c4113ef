// Move-ordering statistics a search thread learns as it goes: which quiet moves caused
// cutoffs (butterfly and continuation histories, counter moves) and which captures paid off.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "chess/types.h"

namespace bookforge::engine {

// Every history value stays within +-kHistoryMax: an update moves it toward the bonus and
// decays it in proportion to its size ("gravity"), so old knowledge fades.
inline constexpr int kHistoryMax = 16384;
inline void update_history(int16_t& entry, int bonus) {
  bonus = bonus > kHistoryMax ? kHistoryMax : bonus < -kHistoryMax ? -kHistoryMax : bonus;
  entry = int16_t(entry + bonus - entry * std::abs(bonus) / kHistoryMax);
}

// Correction history's table: pawn structures hashed to this many slots per side, each value
// a running average of (search result - static evaluation) in 1/kCorrectionGrain centipawns.
inline constexpr int kCorrectionBits = 14;
inline constexpr int kCorrectionSize = 1 << kCorrectionBits;
inline constexpr int kCorrectionGrain = 64;
inline constexpr int kCorrectionMax = 256 * kCorrectionGrain;  // +-256 cp

// Indexed by the moved piece (Piece values 0-13; 15 is kNoPiece) and target square.
using PieceToHistory = int16_t[16][64];

struct History {
  int16_t butterfly[2][64][64];  // [side][from][to]
  int16_t captures[16][64][8];   // [moving piece][to][captured piece type]
  // [piece][to] of the move one (or two) plies earlier, then [piece][to] of this move.
  // The kNoPiece row serves as the context after a null move or at the root.
  PieceToHistory continuation[16][64];
  chess::Move counter[16][64];  // the quiet move that last refuted [piece][to]
  // [side to move][pawn structure]: how far searches found the static evaluation off, in
  // 1/kCorrectionGrain centipawns (correction history).
  int16_t correction[2][kCorrectionSize];

  void clear() { std::memset(static_cast<void*>(this), 0, sizeof *this); }
};

}  // namespace bookforge::engine
