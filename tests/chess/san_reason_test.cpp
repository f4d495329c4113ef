// Why a SAN token is refused: each kind of impossible move gets its own reason, and "would
// leave the king in check" is kept for moves that only the king's safety forbids.
#include <string>

#include <gtest/gtest.h>

#include "chess/san.h"

namespace bookforge::chess {
namespace {

SanError error_of(const char* fen, std::string_view san) {
  Result<Board> board = Board::from_fen(fen);
  EXPECT_TRUE(board.ok()) << fen;
  return board.ok() ? san_to_move(*board, san).error : SanError::kNone;
}

constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

TEST(SanReason, OntoOwnPieceIsNotACheckProblem) {
  // 1. e4 Qd7: the queen would land on its own pawn.
  EXPECT_EQ(error_of(kAfterE4, "Qd7"), SanError::kOwnPiece);
  // "Qxe1" onto the square of one's own king (pgnmentor part 1, game 95447).
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "Qxe1"), SanError::kOwnPiece);
  EXPECT_EQ(std::string(san_error_message(SanError::kOwnPiece)).find("check"), std::string::npos);
}

TEST(SanReason, EachImpossibleMoveHasItsOwnReason) {
  const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(error_of(start, "Nd4"), SanError::kNoSuchPiece);
  EXPECT_EQ(error_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd1"), SanError::kMissingPiece);
  EXPECT_EQ(error_of(start, "e3e4"), SanError::kEmptyOrigin);
  EXPECT_EQ(error_of(start, "exd3"), SanError::kNothingToCapture);
  EXPECT_EQ(error_of("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e4"), SanError::kPawnBlocked);
  // A pinned knight: here the king's safety is the reason.
  EXPECT_EQ(error_of("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nd4"), SanError::kIllegal);
}

TEST(SanReason, MessagesDiffer) {
  const SanError errors[] = {SanError::kSyntax,       SanError::kMissingPiece, SanError::kNoSuchPiece,
                             SanError::kEmptyOrigin,  SanError::kOwnPiece,     SanError::kNothingToCapture,
                             SanError::kPawnBlocked,  SanError::kIllegal,      SanError::kAmbiguous,
                             SanError::kBadPromotion, SanError::kBadCastling};
  for (SanError a : errors)
    for (SanError b : errors)
      if (a != b) {
        EXPECT_NE(san_error_message(a), san_error_message(b));
      }
}

}  // namespace
}  // namespace bookforge::chess
