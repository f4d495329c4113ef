// pgn::start_position: where a game starts, as the replay and db novelty read its tags.
#include <gtest/gtest.h>

#include "pgn/replay.h"

namespace bookforge::pgn::test {
namespace {

constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

// The start of a game with one tag; its FEN, or the error's message.
std::string start_with(const char* name, const char* value) {
  TagList tags;
  tags.add(name, TagValue(value));
  Result<chess::Board> board = start_position(tags);
  return board ? board->fen() : "error: " + board.error().message;
}

TEST(StartPosition, TheStandardStartWithoutAFen) {
  EXPECT_EQ(start_with("White", "A"), chess::Board().fen());
}

TEST(StartPosition, AnEmptyFenIsTheStandardStart) {
  EXPECT_EQ(start_with("FEN", " \t"), chess::Board().fen());
}

TEST(StartPosition, TheFensPosition) { EXPECT_EQ(start_with("FEN", kAfterE4), kAfterE4); }

TEST(StartPosition, ABrokenFenIsAnError) {
  EXPECT_TRUE(start_with("FEN", "not a position").starts_with("error: "));
}

}  // namespace
}  // namespace bookforge::pgn::test
