#include "serve/position_json.h"

#include <algorithm>

#include "book/polyglot/format.h"
#include "chess/movegen.h"
#include "chess/san.h"

namespace bookforge::serve {

nlohmann::ordered_json position_json(const QueriedPosition& position) {
  const chess::Board& board = position.board;
  chess::MoveList moves;
  chess::generate_legal(board, moves);
  nlohmann::ordered_json legal = nlohmann::ordered_json::array();
  for (chess::Move move : moves)
    legal.push_back({{"uci", chess::move_to_uci(move)}, {"san", chess::move_to_san(board, move)}});
  std::sort(legal.begin(), legal.end(), [](const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
    return a["uci"] < b["uci"];
  });

  nlohmann::ordered_json line = nlohmann::ordered_json::array();
  chess::Board replay = position.start;
  for (chess::Move move : position.line) {
    line.push_back({{"uci", chess::move_to_uci(move)}, {"san", chess::move_to_san(replay, move)}});
    chess::UndoInfo undo;
    replay.make_move(move, undo);
  }

  nlohmann::ordered_json result = nullptr;
  if (moves.size() == 0) result = board.in_check() ? "checkmate" : "stalemate";
  return {{"fen", board.fen()},
          {"key", book::hex_key(board.key())},
          {"turn", board.side_to_move() == chess::kWhite ? "white" : "black"},
          {"check", board.in_check()},
          {"legal", std::move(legal)},
          {"line", std::move(line)},
          {"result", std::move(result)}};
}

}  // namespace bookforge::serve
