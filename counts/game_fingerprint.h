// A game's fingerprint: 64 bits that tell whether two PGN records are the same game, so a game
// found in several databases (a game between two players sits in both players' files) is
// counted once.
//
// It covers what makes two records the same game -- the players (White, Black, as decoded
// text), the date (Date and UTCDate), the result and the replayed moves -- and also everything
// else a record contributes to the counts: WhiteElo and BlackElo (as the reader parsed them),
// TimeControl and the start position. Two records with one fingerprint therefore add exactly
// the same counts, so it never matters which copy is kept: with any number of threads, the
// copy a worker happens to see first gives the same book.
//
// The moves are the replayed plies (the first max-ply of the game), so two records that agree
// up to max-ply and differ later are one game for a book that only counts that far.
#pragma once

#include <cstdint>

#include "pgn/game.h"

namespace bookforge::counts {

// Never 0 (free slots of a fingerprint set are 0).
uint64_t game_fingerprint(const pgn::ReplayedGame& game);

// A game's fingerprint made known, on this thread, to every game_fingerprint(game) called while
// this object lives: a sink wrapper that has computed it (the duplicate filter, the games a
// count remembers) holds one around its inner sinks, which then do not hash the game again.
// Nested ones restore the outer one when they end.
class KnownFingerprint {
 public:
  KnownFingerprint(const pgn::ReplayedGame& game, uint64_t fingerprint);
  ~KnownFingerprint();
  KnownFingerprint(const KnownFingerprint&) = delete;
  KnownFingerprint& operator=(const KnownFingerprint&) = delete;

 private:
  const pgn::ReplayedGame* outer_game_;
  uint64_t outer_fingerprint_;
};

}  // namespace bookforge::counts
