// The reduction behind the top and recent games of a position (book/store/game_references.h).
#include <gtest/gtest.h>

#include <vector>

#include "book/store/game_references.h"

namespace bookforge::store {
namespace {

std::vector<uint64_t> fingerprints_at(const std::vector<PositionGame>& games, uint64_t key) {
  std::vector<uint64_t> out;
  for (const PositionGame& g : games)
    if (g.key == key) out.push_back(g.fingerprint);
  return out;
}

TEST(GameReferences, APositionKeepsItsFourTopAndFourRecentGames) {
  std::vector<PositionGame> games;
  // Key 7: ten games; ratings rise with the fingerprint, dates fall with it.
  for (uint64_t f = 1; f <= 10; ++f) games.push_back({7, f, uint32_t(20200000 - f), uint16_t(2000 + f)});
  // Key 9: three games, one of them seen twice (a repetition in the game).
  games.push_back({9, 5, 1, 1});
  games.push_back({9, 6, 1, 1});
  games.push_back({9, 5, 1, 1});
  keep_top_and_recent(games);
  // Top: 10, 9, 8, 7; recent: 1, 2, 3, 4 -- in stored (fingerprint) order.
  EXPECT_EQ(fingerprints_at(games, 7), (std::vector<uint64_t>{1, 2, 3, 4, 7, 8, 9, 10}));
  EXPECT_EQ(fingerprints_at(games, 9), (std::vector<uint64_t>{5, 6}));
}

TEST(GameReferences, TiesGoToTheSmallerFingerprintAsStored) {
  std::vector<PositionGame> games;
  // Six games of one rating and date: the four smallest fingerprints as stored (signed) win both
  // lists, so four are kept; the largest unsigned ones are negative as stored and come first.
  for (uint64_t f : {1ull, 2ull, 3ull, 4ull, 0x8000000000000001ull, 0xffffffffffffffffull})
    games.push_back({3, f, 20200101, 2500});
  keep_top_and_recent(games);
  EXPECT_EQ(fingerprints_at(games, 3),
            (std::vector<uint64_t>{0x8000000000000001ull, 0xffffffffffffffffull, 1, 2}));
}

}  // namespace
}  // namespace bookforge::store
