#include "serve/position_json.h"

#include <algorithm>

#include "base/hex.h"
#include "book/polyglot/format.h"
#include "chess/movegen.h"
#include "json/chess_json.h"

namespace bookforge::serve {

json::Json position_json(const QueriedPosition& position) {
  const chess::Board& board = position.board;
  chess::MoveList moves;
  chess::generate_legal(board, moves);
  json::Json legal = json::Json::array();
  for (chess::Move move : moves) legal.push_back(json::to_json(move, board));
  std::sort(legal.begin(), legal.end(),
            [](const json::Json& a, const json::Json& b) { return a["uci"] < b["uci"]; });

  json::Json line = json::Json::array();
  chess::Board replay = position.start;
  for (chess::Move move : position.line) {
    line.push_back(json::to_json(move, replay));
    chess::UndoInfo undo;
    replay.make_move(move, undo);
  }

  json::Json result = nullptr;
  if (moves.size() == 0) result = board.in_check() ? "checkmate" : "stalemate";
  return {{"fen", board.fen()},
          {"key", hex64(board.key())},
          {"turn", board.side_to_move() == chess::kWhite ? "white" : "black"},
          {"check", board.in_check()},
          {"legal", std::move(legal)},
          {"line", std::move(line)},
          {"result", std::move(result)}};
}

}  // namespace bookforge::serve
