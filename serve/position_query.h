// The position every endpoint is asked about, as lichess's explorer takes it: `fen` (default:
// the start position; '_' may stand for a space) and `play`, UCI moves separated by commas,
// played from it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "chess/move_sequence.h"
#include "serve/query_params.h"

namespace bookforge::serve {

struct QueriedPosition {
  chess::Board start;                   // the position of `fen`
  chess::Board board;                   // after the moves of `play`
  std::vector<chess::Move> line;        // the moves of `play`, legal in turn from `start`
  std::vector<uint64_t> history;        // keys of the positions before `board`, oldest first
  std::optional<chess::LastMove> last;  // the last move of `play` and the position before it
};

// Errors name the parameter: "fen: ..." or "play: move 2 \"e7e9\" is not legal ...".
Result<QueriedPosition> position_from_query(const QueryParams& params);

}  // namespace bookforge::serve
