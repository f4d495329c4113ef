// The engine's answers as JSON: a score, and a search of a position (analyse --json and the
// server's /api/engine).
#pragma once

#include "chess/board.h"
#include "engine/score.h"
#include "engine/search.h"
#include "json/json.h"

namespace bookforge::json {

// {"cp": n} or {"mate": moves} (negative when the side to move is mated), from the side to
// move's point of view.
Json score_json(engine::Score score);

// A search of `board`. A position without legal moves has no search: kCli says
// "result": "checkmate" | "stalemate" with a null bestmove; kApi scores it {"mate": 0} when mated,
// {"cp": 0} when stalemated, with an empty pv. Moves of a pv that are not legal where they come
// (none from our engine) end it.
// kCli: {"fen", "side_to_move", "depth", "seldepth", "nodes", "time_ms", "nps",
//        "bestmove": {"san", "uci"}, "lines": [{"multipv", "move": {"san", "uci"}, "score",
//        "bound", "depth", "pv_san", "pv_uci"}]}
// kApi: {"depth", "score" (the best line's; null when the search never ran), "pv", "pvSan",
//        "nodes"}
Json to_json(const engine::SearchResult& result, const chess::Board& board, Style style);

}  // namespace bookforge::json
