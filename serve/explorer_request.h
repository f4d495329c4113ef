// The explorer's own parameters, as the lichess opening explorer takes them: how many moves to
// list, and the filters (speeds, ratings, since, until), which the store applies
// (store/slice.h). Both spellings of a speed are taken: lichess's "ultraBullet" and ours,
// "ultrabullet"; besides lichess's values, "unknown" (speed), "unrated" and "2800" (ratings).
#pragma once

#include "base/result.h"
#include "serve/query_params.h"
#include "store/game_record.h"
#include "store/slice.h"

namespace bookforge::serve {

inline constexpr int kDefaultExplorerMoves = 12;  // lichess's default

struct ExplorerRequest {
  int max_moves = kDefaultExplorerMoves;
  int top_games = store::kTopGames;  // at most what the store keeps (store/game_record.h)
  int recent_games = store::kRecentGames;
  store::SliceFilter filter;  // empty: every game
};

// Errors name the parameter and the value.
Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params);

}  // namespace bookforge::serve
