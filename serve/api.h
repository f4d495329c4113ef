// The HTTP API's endpoints as plain functions of the query (serve/server.h puts them on URLs):
// each answers JSON, or a 400 naming the bad parameter, or a 404 for what does not exist.
// Everything is read-only, and safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "json/json.h"

#include "book/opening_names.h"
#include "serve/api_response.h"
#include "serve/book_moves.h"
#include "serve/engine_slot.h"
#include "serve/explorer_request.h"
#include "serve/query_params.h"
#include "serve/store_pool.h"

namespace bookforge::serve {

// The stores the API reads: `main` for /api/* and the explorer's paths without a store of
// their own; /masters and /lichess may each have theirs (serve --masters, --lichess), so that
// one server holds a masters database and an online one.
struct ApiStores {
  std::unique_ptr<StorePool> main, masters, lichess;
};

class Api {
 public:
  Api(ApiStores stores, book::OpeningNames names, std::vector<NamedBook> books,
      std::unique_ptr<EngineSlots> engines);

  // The explorer, in the shape of the path asked (serve/explorer_request.h).
  ApiResponse explorer(const QueryParams& params, ExplorerPath path = ExplorerPath::kOwn);
  // /lichess/history: the explorer's answer with the position's games month by month
  // (store/history.h) and no moves or games, as lichess's.
  ApiResponse history(QueryParams params, ExplorerPath path);
  // /player (and lichess's older /personal): the player explorer (store/player_explore.h) on
  // /lichess's store, in lichess's shape: `player` and `color` needed; `modes` (rated, casual),
  // `speeds`, `since`, `until`, `moves`, `recentGames` as lichess takes them.
  ApiResponse player(const QueryParams& params);
  // /masters/pgn/{id}: a game's PGN, as lichess's masters answer it; `id` the 8 characters the
  // explorer gives (or db explore's 16 hex digits). Read from /masters's store.
  ApiResponse masters_pgn(const std::string& id);
  // /api/players?prefix=&limit=: the names of the players of /player's store that start with
  // `prefix` (ASCII case ignored), most games first (store.h's players_with_prefix), for the
  // page's player tab; `limit` 1 to 100, default 10.
  ApiResponse players(const QueryParams& params);
  // /api/novelty?pgn=&minGames=: where the game of `pgn` (one game's PGN text) left the main
  // store's tree, as `db novelty` finds it (store/novelty.h), under the explorer's filters
  // (speeds, ratings, since, until); `minGames` (default 1) as db novelty's --min-games.
  ApiResponse novelty(const QueryParams& params);
  ApiResponse position(const QueryParams& params) const;
  ApiResponse books(const QueryParams& params) const;
  // One search per client at a time: a client is the asker's address and, if given, the
  // `client` parameter (an opaque id of at most 64 characters, such as one a page makes up
  // for each of its tabs, so that two tabs do not stop each other's searches). The search
  // stops when `client_left` says the asker has gone.
  ApiResponse engine(const QueryParams& params, const std::string& address,
                     const std::function<bool()>& client_left = nullptr);
  // /api/game?id=: a game's PGN from the main store (either id).
  ApiResponse game(const QueryParams& params);
  // /api/info, made again when the store has changed since (a `db add` while serving): the
  // store's newest source is checked on each call, the counts (a full scan) only then.
  ApiResponse info();
  // The same, for the caller to see an unreadable store before serving.
  Status refresh_info();

  // Stops the engine searches under way and refuses new ones.
  void stop_searches();

 private:
  StorePool& store_for(ExplorerPath path);
  ApiResponse game_text(StorePool& stores, const std::string& id);

  ApiStores stores_;
  book::OpeningNames names_;
  std::vector<NamedBook> books_;
  std::unique_ptr<EngineSlots> engines_;
  std::mutex info_mutex_;  // guards info_ and info_source_
  std::string info_;
  std::optional<int64_t> info_source_;  // the store's newest source when info_ was made
};

}  // namespace bookforge::serve
