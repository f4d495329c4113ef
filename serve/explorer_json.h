// An exploration of the store (store/explore.h) as the explorer's endpoints answer it: the
// request's limits applied to json/store_json.h's definition, in the API's style (lichess's
// opening explorer shape, plus a "bookforge" object with what lichess has no field for).
#pragma once

#include <optional>
#include <vector>

#include "book/opening_names.h"
#include "chess/board.h"
#include "json/json.h"
#include "serve/explorer_request.h"
#include "store/explore.h"
#include "store/game_record.h"

namespace bookforge::serve {

// `white`, `draws`, `black` at the top sum every move of the position, listed or not; the
// moves are the request's first `max_moves` by games; topGames and recentGames are the store's
// lists for the position (all its games, whatever the filter; store/game_record.h) cut to the
// request's numbers, each with the move it played (`moves`, store/explore.h). The request's
// path decides lichess's shape: /masters has no recentGames, /lichess gives speed and mode.
// json::to_json(const json::ExploredPosition&, Style) lists the fields.
struct PositionGames {
  std::vector<store::GameRecord> top, recent;
  store::GameMoves moves;
};
json::Json explorer_json(const store::Exploration& exploration, const std::optional<store::Arrival>& arrival,
                         const chess::Board& board, const book::OpeningNames& names,
                         const ExplorerRequest& request, const PositionGames& games);

}  // namespace bookforge::serve
