#include "chess/move_sequence.h"

#include <string>

#include "chess/san.h"

namespace bookforge::chess {
namespace {

// "12." and "12..." vanish; "12.e4" becomes "e4".
std::string_view strip_move_number(std::string_view token) {
  size_t i = 0;
  while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
  if (i == 0 || i == token.size() || token[i] != '.') return token;
  while (i < token.size() && token[i] == '.') ++i;
  return token.substr(i);
}

}  // namespace

Status play_moves(Board& board, std::string_view moves, std::optional<LastMove>* last,
                  std::vector<uint64_t>* history) {
  int number = 0;
  size_t i = 0;
  while (i < moves.size()) {
    while (i < moves.size() && (moves[i] == ' ' || moves[i] == '\t' || moves[i] == '\n' || moves[i] == '\r'))
      ++i;
    const size_t start = i;
    while (i < moves.size() && moves[i] != ' ' && moves[i] != '\t' && moves[i] != '\n' && moves[i] != '\r')
      ++i;
    const std::string_view token = strip_move_number(moves.substr(start, i - start));
    if (token.empty()) continue;
    ++number;
    Move m = uci_to_move(board, token);
    if (m == Move::none()) {
      const SanResult r = san_to_move(board, token);
      if (!r.ok())
        return Error{"move " + std::to_string(number) + " \"" + std::string(token) +
                     "\": " + std::string(san_error_message(r.error)) + " (position " + board.fen() + ")"};
      m = r.move;
    }
    if (last) *last = LastMove{board, m};
    if (history) history->push_back(board.key());
    UndoInfo undo;
    board.make_move(m, undo);
  }
  return ok_status();
}

}  // namespace bookforge::chess
