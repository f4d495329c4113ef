#include "book/ctg/move_code.h"

#include <array>

namespace bookforge::book {
namespace {

using chess::kBishop, chess::kKing, chess::kKnight, chess::kPawn, chess::kQueen, chess::kRook;

struct MoveCode {
  uint8_t code;
  chess::PieceType piece;
  uint8_t nth;  // 1 = the first such piece on the walk a1, a2, ..., h8
  int8_t forward;
  int8_t right;
};

// Sorted by piece, then by which one, then by the step.
constexpr MoveCode kMoveCodes[] = {
    {0x0c, kPawn, 1, 1, -1},    {0xec, kPawn, 1, 1, 0},     {0x8b, kPawn, 1, 1, 1},
    {0xdb, kPawn, 1, 2, 0},     {0xd1, kPawn, 2, 1, -1},    {0x04, kPawn, 2, 1, 0},
    {0x96, kPawn, 2, 1, 1},     {0x62, kPawn, 2, 2, 0},     {0x27, kPawn, 3, 1, -1},
    {0x55, kPawn, 3, 1, 0},     {0x7c, kPawn, 3, 1, 1},     {0x9b, kPawn, 3, 2, 0},
    {0x06, kPawn, 4, 1, -1},    {0xcf, kPawn, 4, 1, 0},     {0xeb, kPawn, 4, 1, 1},
    {0xe6, kPawn, 4, 2, 0},     {0xde, kPawn, 5, 1, -1},    {0xbb, kPawn, 5, 1, 0},
    {0x00, kPawn, 5, 1, 1},     {0x5f, kPawn, 5, 2, 0},     {0x82, kPawn, 6, 1, -1},
    {0xcb, kPawn, 6, 1, 0},     {0x2d, kPawn, 6, 1, 1},     {0xb1, kPawn, 6, 2, 0},
    {0xc7, kPawn, 7, 1, -1},    {0x18, kPawn, 7, 1, 0},     {0x5c, kPawn, 7, 1, 1},
    {0xc8, kPawn, 7, 2, 0},     {0x24, kPawn, 8, 1, -1},    {0xa3, kPawn, 8, 1, 0},
    {0x14, kPawn, 8, 1, 1},     {0x4a, kPawn, 8, 2, 0},     {0xda, kKnight, 1, -2, -1},
    {0x8a, kKnight, 1, -2, 1},  {0x0f, kKnight, 1, -1, -2}, {0xe9, kKnight, 1, -1, 2},
    {0xf7, kKnight, 1, 1, -2},  {0x36, kKnight, 1, 1, 2},   {0x85, kKnight, 1, 2, -1},
    {0x34, kKnight, 1, 2, 1},   {0x30, kKnight, 2, -2, -1}, {0x2a, kKnight, 2, -2, 1},
    {0x01, kKnight, 2, -1, -2}, {0xe0, kKnight, 2, -1, 2},  {0xd3, kKnight, 2, 1, -2},
    {0xd2, kKnight, 2, 1, 2},   {0xf3, kKnight, 2, 2, -1},  {0x4c, kKnight, 2, 2, 1},
    {0x1b, kBishop, 1, 1, -1},  {0x2e, kBishop, 1, 1, 1},   {0xc3, kBishop, 1, 2, -2},
    {0xc1, kBishop, 1, 2, 2},   {0x66, kBishop, 1, 3, -3},  {0x0d, kBishop, 1, 3, 3},
    {0x6a, kBishop, 1, 4, 4},   {0x3c, kBishop, 1, 5, -5},  {0x15, kBishop, 1, 5, 5},
    {0xb2, kBishop, 1, 6, -6},  {0x3a, kBishop, 1, 6, 6},   {0x26, kBishop, 1, 7, -7},
    {0x12, kBishop, 1, 7, 7},   {0x54, kBishop, 2, 1, -1},  {0xf5, kBishop, 2, 1, 1},
    {0x22, kBishop, 2, 2, -2},  {0xc2, kBishop, 2, 2, 2},   {0xca, kBishop, 2, 3, -3},
    {0xb9, kBishop, 2, 3, 3},   {0x9f, kBishop, 2, 4, -4},  {0xcc, kBishop, 2, 5, -5},
    {0x32, kBishop, 2, 5, 5},   {0x79, kBishop, 2, 6, -6},  {0x09, kBishop, 2, 6, 6},
    {0x72, kBishop, 2, 7, -7},  {0x1d, kBishop, 2, 7, 7},   {0x7f, kRook, 1, 0, 1},
    {0xcd, kRook, 1, 0, 2},     {0x98, kRook, 1, 0, 3},     {0xef, kRook, 1, 0, 4},
    {0x6e, kRook, 1, 0, 5},     {0x52, kRook, 1, 0, 6},     {0x86, kRook, 1, 0, 7},
    {0x81, kRook, 1, 1, 0},     {0xe8, kRook, 1, 2, 0},     {0x7a, kRook, 1, 3, 0},
    {0x99, kRook, 1, 4, 0},     {0x87, kRook, 1, 5, 0},     {0x50, kRook, 1, 6, 0},
    {0xe1, kRook, 1, 7, 0},     {0xc4, kRook, 2, 0, 1},     {0xa9, kRook, 2, 0, 2},
    {0x0e, kRook, 2, 0, 3},     {0xad, kRook, 2, 0, 4},     {0xb5, kRook, 2, 0, 5},
    {0xd8, kRook, 2, 0, 6},     {0x21, kRook, 2, 0, 7},     {0x7d, kRook, 2, 1, 0},
    {0xf4, kRook, 2, 2, 0},     {0xe3, kRook, 2, 3, 0},     {0xc5, kRook, 2, 4, 0},
    {0xa5, kRook, 2, 5, 0},     {0x7b, kRook, 2, 6, 0},     {0x69, kRook, 2, 7, 0},
    {0x2f, kQueen, 1, 0, 1},    {0x74, kQueen, 1, 0, 2},    {0x31, kQueen, 1, 0, 3},
    {0xe5, kQueen, 1, 0, 4},    {0x39, kQueen, 1, 0, 5},    {0x29, kQueen, 1, 0, 6},
    {0x8f, kQueen, 1, 0, 7},    {0xd7, kQueen, 1, 1, -1},   {0x05, kQueen, 1, 1, 0},
    {0xf1, kQueen, 1, 1, 1},    {0xd9, kQueen, 1, 2, -2},   {0x9d, kQueen, 1, 2, 0},
    {0xa2, kQueen, 1, 2, 2},    {0x7e, kQueen, 1, 3, -3},   {0x94, kQueen, 1, 3, 0},
    {0x45, kQueen, 1, 3, 3},    {0x37, kQueen, 1, 4, 0},    {0xe7, kQueen, 1, 4, 4},
    {0x4b, kQueen, 1, 5, -5},   {0xb7, kQueen, 1, 5, 0},    {0x28, kQueen, 1, 5, 5},
    {0x80, kQueen, 1, 6, -6},   {0x9a, kQueen, 1, 6, 0},    {0x61, kQueen, 1, 6, 6},
    {0x42, kQueen, 1, 7, -7},   {0xfd, kQueen, 1, 7, 0},    {0xed, kQueen, 1, 7, 7},
    {0xf8, kQueen, 2, 0, 1},    {0x03, kQueen, 2, 0, 2},    {0xfa, kQueen, 2, 0, 3},
    {0x08, kQueen, 2, 0, 4},    {0xbc, kQueen, 2, 0, 5},    {0xf0, kQueen, 2, 0, 7},
    {0xee, kQueen, 2, 1, -1},   {0x4d, kQueen, 2, 1, 0},    {0x92, kQueen, 2, 1, 1},
    {0x8e, kQueen, 2, 2, -2},   {0xbd, kQueen, 2, 2, 0},    {0xfb, kQueen, 2, 2, 2},
    {0xfe, kQueen, 2, 3, -3},   {0xa0, kQueen, 2, 3, 0},    {0xae, kQueen, 2, 3, 3},
    {0x38, kQueen, 2, 4, -4},   {0xb0, kQueen, 2, 4, 0},    {0x3b, kQueen, 2, 5, -5},
    {0xc6, kQueen, 2, 5, 0},    {0x41, kQueen, 2, 5, 5},    {0xab, kQueen, 2, 6, -6},
    {0x1a, kQueen, 2, 6, 0},    {0xf9, kQueen, 2, 6, 0},    {0x23, kQueen, 2, 6, 6},
    {0x63, kQueen, 2, 7, -7},   {0xc9, kQueen, 2, 7, 0},    {0x6f, kQueen, 2, 7, 7},
    {0x8c, kKing, 1, -1, -1},   {0x0a, kKing, 1, -1, 0},    {0x44, kKing, 1, -1, 1},
    {0xf6, kKing, 1, 0, -2},    {0x97, kKing, 1, 0, -1},    {0xbe, kKing, 1, 0, 1},
    {0x6b, kKing, 1, 0, 2},     {0xdf, kKing, 1, 1, -1},    {0x13, kKing, 1, 1, 0},
    {0x67, kKing, 1, 1, 1},
};

struct CodeTable {
  std::array<MoveCode, 256> by_code{};
  std::array<bool, 256> used{};
};

constexpr CodeTable make_code_table() {
  CodeTable table;
  for (const MoveCode& m : kMoveCodes) {
    table.by_code[m.code] = m;
    table.used[m.code] = true;
  }
  return table;
}

constexpr CodeTable kCodeTable = make_code_table();
static_assert(sizeof(kMoveCodes) / sizeof(kMoveCodes[0]) == 166, "a code listed twice or missing");

}  // namespace

std::optional<CtgStoredMove> decode_ctg_move(uint8_t code, const CtgBoard& board) {
  if (!kCodeTable.used[code]) return std::nullopt;
  const MoveCode& m = kCodeTable.by_code[code];
  const chess::Piece wanted = chess::make_piece(chess::kWhite, m.piece);
  int seen = 0;
  for (int file = 0; file < 8; ++file)
    for (int rank = 0; rank < 8; ++rank) {
      const chess::Square from = chess::make_square(file, rank);
      if (board.squares[from] != wanted || ++seen != m.nth) continue;
      const chess::Square to = chess::make_square((file + m.right + 8) % 8, (rank + m.forward + 8) % 8);
      return CtgStoredMove{from, to};
    }
  return std::nullopt;
}

}  // namespace bookforge::book
