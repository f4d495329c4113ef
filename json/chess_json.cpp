#include "json/chess_json.h"

#include "chess/san.h"

namespace bookforge::json {

Json to_json(chess::Move move, const chess::Board& board) {
  return {{"uci", chess::move_to_uci(move)}, {"san", chess::move_to_san(board, move)}};
}

}  // namespace bookforge::json
