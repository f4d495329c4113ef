#include "engine/cycle.h"

#include <gtest/gtest.h>

#include "chess/san.h"

namespace bookforge::engine {
namespace {

chess::Board play(const std::vector<const char*>& moves, std::vector<uint64_t>* keys = nullptr) {
  chess::Board b;
  for (const char* m : moves) {
    if (keys) keys->push_back(b.key());
    chess::UndoInfo u;
    b.make_move(chess::uci_to_move(b, m), u);
  }
  return b;
}

TEST(Cycle, FindsTheMoveBackToAnEarlierPosition) {
  std::vector<uint64_t> keys;
  const chess::Board b = play({"g1f3", "g8f6", "f3g1"}, &keys);  // Black to move; Ng8 restores the start
  EXPECT_TRUE(reaches_in_one_move(b, keys[0]));
  EXPECT_FALSE(reaches_in_one_move(b, keys[1]));  // same side to move: not one move away
  EXPECT_FALSE(reaches_in_one_move(b, keys[2]));
}

// Whether White, to move in `now`, can reach `earlier` (Black to move) in one move.
bool reaches(const char* now, const char* earlier) {
  Result<chess::Board> a = chess::Board::from_fen(now);
  Result<chess::Board> b = chess::Board::from_fen(earlier);
  EXPECT_TRUE(a.ok() && b.ok()) << now << " / " << earlier;
  return a.ok() && b.ok() && reaches_in_one_move(*a, b->key());
}

TEST(Cycle, PathMustBeFree) {
  // Ra1-d1: free, or blocked by the knight on b1.
  EXPECT_TRUE(reaches("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/3RK3 b - - 0 1"));
  EXPECT_FALSE(reaches("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1", "4k3/8/8/8/8/8/8/1N1RK3 b - - 0 1"));
  // Knights jump; the target square must be empty (a capture is not reversible).
  EXPECT_TRUE(reaches("6k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "6k1/8/8/8/8/8/8/4K1N1 b - - 0 1"));
  EXPECT_FALSE(reaches("6k1/8/8/8/8/8/4N3/4K1n1 w - - 0 1", "6k1/8/8/8/8/8/8/4K1N1 b - - 0 1"));
  // A pawn move is never a way back.
  EXPECT_FALSE(reaches("6k1/8/8/8/8/8/4P3/4K3 w - - 0 1", "6k1/8/8/8/8/4P3/8/4K3 b - - 0 1"));
}

}  // namespace
}  // namespace bookforge::engine
