// What the store tells of a game without reading its text: the explorer's 8-character ids and
// a lichess game's kind from its Event tag.
#include <gtest/gtest.h>

#include <random>

#include "store/game_record.h"

namespace bookforge::store {
namespace {

TEST(ShortGameId, IsEightLettersOrDigitsAndNamesItsFingerprintsRange) {
  std::mt19937_64 rng(29);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t fingerprint = i == 0 ? 0 : i == 1 ? ~uint64_t(0) : rng();
    const std::string id = short_game_id(fingerprint);
    ASSERT_EQ(id.size(), 8u);
    for (char c : id) ASSERT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << id;
    const std::optional<FingerprintRange> range = parse_any_game_id(id);
    ASSERT_TRUE(range) << id;
    EXPECT_LE(range->first, fingerprint);
    EXPECT_GE(range->last, fingerprint);
    EXPECT_EQ(range->last - range->first, (uint64_t(1) << 17) - 1);
  }
}

TEST(ShortGameId, SixteenHexDigitsNameOneGameAndOtherTextNone) {
  const std::optional<FingerprintRange> full = parse_any_game_id("00ab0000000000cd");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->first, 0x00ab0000000000cdull);
  EXPECT_EQ(full->last, full->first);
  for (const char* bad : {"", "abc-defg", "zzzzzzzz", "00ab0000000000cdx", "a b c d "})
    EXPECT_FALSE(parse_any_game_id(bad)) << bad;  // "zzzzzzzz": above every fingerprint's id
}

TEST(GameMode, ReadsLichesssEventNames) {
  EXPECT_EQ(mode_of_event("Rated Blitz game"), GameMode::kRated);
  EXPECT_EQ(mode_of_event("Casual UltraBullet tournament https://lichess.org/x"), GameMode::kCasual);
  for (const char* other : {"", "Chessable Masters", "Rated", "rated Blitz game", "Casualties Open"})
    EXPECT_EQ(mode_of_event(other), GameMode::kUnknown) << other;
}

}  // namespace
}  // namespace bookforge::store
