// The answer of /api/position: the position, its legal moves and the line that led to it, so
// that the page needs no rules engine of its own (ours decides legality).
#pragma once

#include <nlohmann/json.hpp>

#include "serve/position_query.h"

namespace bookforge::serve {

// {"fen", "key", "turn", "check", "legal": [{"uci", "san"}] (by UCI), "line": [{"uci", "san"}],
//  "result": "checkmate" | "stalemate" | null}
nlohmann::ordered_json position_json(const QueriedPosition& position);

}  // namespace bookforge::serve
