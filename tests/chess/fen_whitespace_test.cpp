// A FEN keeps the line break it was read with, or blanks around it when pasted: they are not
// part of it, and the position is the same. Text after the fields is still an error.
#include <gtest/gtest.h>

#include "chess/board.h"

namespace bookforge::chess {
namespace {

constexpr const char* kItalian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

TEST(FenWhitespace, SurroundingSpaceAndLineBreaksAreIgnored) {
  const Board expected = Board::from_fen(kItalian).value();
  for (const std::string& text :
       {std::string(kItalian) + "\n", std::string(kItalian) + "\r\n", "  " + std::string(kItalian) + " \t \n",
        "\n" + std::string(kItalian), std::string(kItalian) + "\n\n"}) {
    Result<Board> board = Board::from_fen(text);
    ASSERT_TRUE(board.ok()) << '"' << text << "\": " << board.error().message;
    EXPECT_EQ(board->fen(), expected.fen());
    EXPECT_EQ(board->key(), expected.key());
  }
  // The four-field form too.
  EXPECT_TRUE(Board::from_fen("8/8/8/4k3/8/8/8/4K3 w - -\n").ok());
}

TEST(FenWhitespace, GarbageIsStillRejected) {
  for (const std::string& text :
       {std::string(kItalian) + "\ngarbage", std::string(kItalian) + " garbage", std::string(kItalian) + " 7",
        std::string("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R\nb KQkq - 3 3"),
        std::string(kItalian) + "\x01", std::string(" \n\t")})
    EXPECT_FALSE(Board::from_fen(text).ok()) << '"' << text << '"';
}

}  // namespace
}  // namespace bookforge::chess
