// EPD records as test suites use them: a position (four FEN fields, optionally followed by
// the move counters) and operations such as bm (best moves), am (moves to avoid), id, and
// the c8/c9 point lists of the Strategic Test Suite.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "chess/board.h"

namespace bookforge::engine {

struct EpdRecord {
  chess::Board board;
  std::string id;
  std::vector<chess::Move> best_moves;              // bm
  std::vector<chess::Move> avoid_moves;             // am
  std::vector<std::pair<chess::Move, int>> points;  // c9 (UCI moves) with c8 (points), STS style
};

// Parses one line. Errors say what is wrong (bad FEN field, a bm move that is not legal...).
Result<EpdRecord> parse_epd(std::string_view line);

// How a suite judges a move: the points it earns (STS), and whether it solves the position
// (one of the bm moves, none of the am moves).
int epd_points(const EpdRecord& record, chess::Move move);
bool epd_solved(const EpdRecord& record, chess::Move move);

}  // namespace bookforge::engine
