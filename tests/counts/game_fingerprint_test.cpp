// counts::game_fingerprint: what makes two records one game. Fingerprints are kept in counts
// files and stores (the games a store already holds are found by them), so their values are
// pinned: a store made by an earlier bookforge must still recognise its games.
#include "counts/game_fingerprint.h"

#include <gtest/gtest.h>

#include <string>

#include "pgn/replay_text.h"

namespace bookforge::counts {
namespace {

uint64_t fingerprint_of(const std::string& text) {
  uint64_t f = 0;
  const Status read =
      pgn::replay_game_text(text, "pgn", {}, [&](const pgn::ReplayedGame& g) { f = game_fingerprint(g); });
  EXPECT_TRUE(read) << read.error().message;
  return f;
}

std::string game(const std::string& white, const std::string& black = "Black, B") {
  return "[White \"" + white + "\"]\n[Black \"" + black +
         "\"]\n[Date \"2020.01.02\"]\n[Result \"1-0\"]\n[WhiteElo \"2400\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
}

TEST(GameFingerprint, ValuesArePinnedAcrossVersions) {
  EXPECT_EQ(fingerprint_of(game("White, W")), uint64_t{10313143328264037479u});
  EXPECT_EQ(fingerprint_of(game("O\\\"Kelly, C")), uint64_t{15516003206261118463u});
  EXPECT_EQ(fingerprint_of(game("Caf\xe9, A")), uint64_t{11672175547140163592u});
  EXPECT_EQ(fingerprint_of("[White \"a\"]\n[Black \"b\"]\n\n*\n"), uint64_t{7837265028737560730u});
}

TEST(GameFingerprint, NamesAreComparedAsDecodedText) {
  // Latin-1 bytes of an old file read as the same name in UTF-8.
  EXPECT_EQ(fingerprint_of(game("Caf\xe9, A")), fingerprint_of(game("Caf\xc3\xa9, A")));
  EXPECT_NE(fingerprint_of(game("White, W")), fingerprint_of(game("White, V")));
  EXPECT_NE(fingerprint_of(game("White, W")), fingerprint_of(game("White, W", "Black, C")));
  // The length before each name keeps "ab" + "c" apart from "a" + "bc".
  EXPECT_NE(fingerprint_of(game("ab", "c")), fingerprint_of(game("a", "bc")));
}

TEST(GameFingerprint, TheMovesAndTheResultCount) {
  const std::string base = game("White, W");
  std::string other_move = base;
  other_move.replace(other_move.find("Nc6"), 3, "Nf6");
  std::string other_result = base;
  other_result.replace(other_result.find("[Result \"1-0\"]"), 14, "[Result \"0-1\"]");
  other_result.replace(other_result.rfind("1-0"), 3, "0-1");
  EXPECT_NE(fingerprint_of(base), fingerprint_of(other_move));
  EXPECT_NE(fingerprint_of(base), fingerprint_of(other_result));
  EXPECT_NE(fingerprint_of(base), 0u);
}

}  // namespace
}  // namespace bookforge::counts
