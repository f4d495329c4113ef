// The answer of /api/position: the position, its legal moves and the line that led to it, so
// that the page needs no rules engine of its own (ours decides legality).
#pragma once

#include "json/json.h"
#include "serve/position_query.h"

namespace bookforge::serve {

// {"fen", "key", "turn", "check", "legal": [{"uci", "san"}] (by UCI), "line": [{"uci", "san"}],
//  "result": "checkmate" | "stalemate" | null}
json::Json position_json(const QueriedPosition& position);

}  // namespace bookforge::serve
