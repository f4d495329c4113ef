// Search scores: centipawns from the side to move's point of view, with mate scores at the
// ends of the range.
//
//   -kScoreMate ... -kScoreMateInMaxPly | ordinary scores | kScoreMateInMaxPly ... kScoreMate
//        being mated in N plies                                   mating in N plies
//
// A mate found N plies from the root scores kScoreMate - N, so shorter mates score higher.
// Every score, kScoreInfinite and kScoreNone included, fits in an int16_t (the TT stores them so).
#pragma once

#include <cstdint>

namespace bookforge::engine {

using Score = int;

inline constexpr int kMaxPly = 128;

inline constexpr Score kScoreDraw = 0;
inline constexpr Score kScoreMate = 32000;
inline constexpr Score kScoreMateInMaxPly = kScoreMate - kMaxPly;
inline constexpr Score kScoreInfinite = 32001;
inline constexpr Score kScoreNone = 32002;

constexpr Score mate_in(int ply) { return kScoreMate - ply; }
constexpr Score mated_in(int ply) { return -kScoreMate + ply; }
constexpr bool is_mate_score(Score s) { return s >= kScoreMateInMaxPly || s <= -kScoreMateInMaxPly; }

// Full moves to mate as UCI prints it ("score mate 3"); negative when the side to move is mated.
constexpr int mate_in_moves(Score s) { return s > 0 ? (kScoreMate - s + 1) / 2 : -((kScoreMate + s) / 2); }

}  // namespace bookforge::engine
