// What the tests of the book converters (ABK, CTG) ask of a converted book: the position after
// some moves, and the moves the book gives there.
#pragma once

#include <string>
#include <vector>

#include "book/polyglot/probe.h"
#include "chess/board.h"
#include "chess/san.h"

namespace bookforge::book {

// The position after `moves` (UCI, space separated) from the start position.
inline chess::Board after(const std::string& moves) {
  chess::Board board;
  chess::UndoInfo undo;
  for (size_t start = 0; start < moves.size();) {
    size_t end = moves.find(' ', start);
    if (end == std::string::npos) end = moves.size();
    board.make_move(chess::uci_to_move(board, moves.substr(start, end - start)), undo);
    start = end + 1;
  }
  return board;
}

// "uci:weight" for each of the position's moves, in book order.
inline std::vector<std::string> moves_of(const PolyglotBook& book, const chess::Board& board) {
  std::vector<std::string> out;
  for (const ProbedMove& m : probe_book(book, board))
    out.push_back((m.move == chess::Move::none() ? "?" : chess::move_to_uci(m.move)) + ":" +
                  std::to_string(m.entry.weight));
  return out;
}

}  // namespace bookforge::book
