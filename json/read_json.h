// What a PGN read found (pgn/read_stats.h), as `scan --json` prints it and the build report
// holds it under "games".
#pragma once

#include "json/json.h"
#include "pgn/read_stats.h"

namespace bookforge::json {

// {"file", "game", "line", "reason", "detail"}
Json to_json(const pgn::BadGame& bad);

// {"games", "accepted", "rejected": {filter: n}, "bad", "bad_reasons": {reason: n},
//  "unsupported_variant", "plies", "bytes", "seconds" (3 decimals), "bad_examples": [...]}
Json to_json(const pgn::ReadStats& stats);

}  // namespace bookforge::json
