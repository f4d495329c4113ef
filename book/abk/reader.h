// Reads an Arena ABK book (book/abk/format.h) by walking its tree from the start position:
// every entry becomes one record of the position it is played in (its Polyglot key) and its
// move. The walk checks every link and every move, so any file, however damaged, gives either
// the records or an error naming the file, the entry and its byte offset; never a crash, and
// never a loop (an entry reached twice is an error).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"

namespace bookforge::book {

struct AbkMove {
  uint64_t key = 0;   // the Polyglot key of the position the move is played in
  uint16_t move = 0;  // Polyglot encoding (castling as king takes rook)
  uint8_t priority = 0;
  uint32_t games = 0;
  uint32_t wins = 0;
  uint32_t losses = 0;
};

// The records in the order the walk meets them (depth first, siblings in file order). A
// position reached along several lines (a transposition) has its moves once per line.
Result<std::vector<AbkMove>> read_abk(std::span<const unsigned char> bytes, const std::string& name);

}  // namespace bookforge::book
