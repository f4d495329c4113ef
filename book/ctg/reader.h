// Reads a ChessBase CTG book (book/ctg/format.h) into the moves of every position reachable in
// it from the start position. The .ctg file alone is read: every page is read and its positions
// are indexed in memory, so the book's .cto index (which only finds one position's page
// quickly) and .ctb are not needed, and a .ctg without them reads the same. Two records of
// the same position are an error (the book would not say which one holds).
//
// The walk starts at the start position and follows every book move to the positions it
// leads to, each position once. Every move is checked (a code the format has, a piece that is
// there, legal where it is played), so any file gives either the moves or an error naming the
// file, the page and the byte offset of the record; never a crash.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/ctg/format.h"

namespace bookforge::book {

struct CtgMove {
  uint64_t key = 0;   // the Polyglot key of the position the move is played in
  uint16_t move = 0;  // Polyglot encoding (castling as king takes rook)
  uint8_t annotation = kCtgNoAnnotation;
  // The games of the position the move leads to, turned to the side that plays the move:
  // wins are the mover's. All 0 (and in_book false) when the book has no such position.
  bool in_book = false;
  uint32_t games = 0;
  uint32_t wins = 0;
  uint32_t draws = 0;
  uint32_t losses = 0;
  uint8_t recommendation = 0;  // kCtgMarkedRed, kCtgMarkedGreen or 0
};

// The moves, position by position in the order the walk meets them (depth first).
Result<std::vector<CtgMove>> read_ctg(std::span<const unsigned char> bytes, const std::string& name);

}  // namespace bookforge::book
