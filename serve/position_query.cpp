#include "serve/position_query.h"

#include <algorithm>
#include <string_view>

#include "chess/san.h"
#include "serve/explorer_request.h"

namespace bookforge::serve {

Result<QueriedPosition> position_from_query(const QueryParams& params) {
  QueriedPosition position;
  if (std::optional<std::string> fen = find_param(params, "fen")) {
    // lichess takes '_' for a space, so that a FEN fits in a URL unescaped; no FEN has one.
    std::replace(fen->begin(), fen->end(), '_', ' ');
    // A Chess960 FEN's castling field (X-FEN) names rooks by side: read it as one when asked.
    const bool chess960 =
        explorer_variant(find_param(params, "variant").value_or("")) == pgn::Variant::kChess960;
    Result<chess::Board> parsed = chess::Board::from_fen(*fen, chess960);
    if (!parsed) return Error{"fen: " + parsed.error().message};
    position.start = *parsed;
  }
  position.board = position.start;
  const std::string play = find_param(params, "play").value_or("");
  std::string_view rest = play;
  for (int number = 1; !play.empty(); ++number) {
    const size_t comma = rest.find(',');
    const std::string token(rest.substr(0, comma));
    const chess::Move move = chess::uci_to_move(position.board, token);
    if (move == chess::Move::none())
      return Error{"play: move " + std::to_string(number) + " " + quoted_value(token) +
                   " is not a legal UCI move in " + position.board.fen()};
    position.history.push_back(position.board.key());
    position.line.push_back(move);
    position.last = chess::LastMove{position.board, move};
    chess::UndoInfo undo;
    position.board.make_move(move, undo);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return position;
}

}  // namespace bookforge::serve
