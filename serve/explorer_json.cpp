#include "serve/explorer_json.h"

#include <algorithm>

#include "json/store_json.h"

namespace bookforge::serve {

json::Json explorer_json(const store::Exploration& exploration, const std::optional<store::Arrival>& arrival,
                         const chess::Board& board, const book::OpeningNames& names,
                         const ExplorerRequest& request, const PositionGames& games) {
  const json::ExploredPosition position{exploration,
                                        arrival,
                                        board,
                                        request.filter,
                                        names,
                                        games.top,
                                        games.recent,
                                        size_t(std::max(request.max_moves, 0)),
                                        size_t(std::max(request.top_games, 0)),
                                        size_t(std::max(request.recent_games, 0)),
                                        &games.moves,
                                        request.path != ExplorerPath::kMasters,
                                        request.path == ExplorerPath::kLichess};
  return json::to_json(position, json::Style::kApi);
}

}  // namespace bookforge::serve
