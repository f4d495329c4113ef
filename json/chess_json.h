// A move as JSON, in both notations: {"uci", "san"} (the position's legal moves and line in
// the API, the engine's best moves in analyse --json).
#pragma once

#include "chess/board.h"
#include "json/json.h"

namespace bookforge::json {

// `move` must be legal on `board` (its SAN is written there).
Json to_json(chess::Move move, const chess::Board& board);

}  // namespace bookforge::json
