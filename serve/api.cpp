#include "serve/api.h"

#include <limits>

#include "json/history_json.h"
#include "json/novelty_json.h"
#include "json/player_json.h"
#include "store/explore.h"
#include "store/game_text.h"
#include "store/history.h"
#include "store/novelty.h"
#include "store/player_explore.h"

#include "serve/explorer_json.h"
#include "serve/position_json.h"
#include "serve/position_query.h"

namespace bookforge::serve {

namespace {

constexpr size_t kMaxClientIdLength = 64;
constexpr int kDefaultPlayerSuggestions = 10;
constexpr int kMaxPlayerSuggestions = 100;

// /api/info's body: the store's counts and how they were made, the books, which explorer
// filters the store can apply (every store keeps its counts by speed, rating band and month),
// the version.
Result<json::Json> make_info(store::Store& store, const std::vector<NamedBook>& books) {
  Result<store::TreeStats> stats = store.stats();
  if (!stats) return stats.error();
  Result<std::optional<store::CountingSettings>> settings = store.settings();
  if (!settings) return settings.error();
  json::Json book_names = json::Json::array();
  for (const NamedBook& book : books) book_names.push_back(json::outside_text(book.name));
  return json::Json{{"store",
                     {{"path", json::outside_text(store.path())},
                      {"games", stats->games},
                      {"positions", stats->positions},
                      {"sources", stats->sources.size()},
                      {"counting", json::outside_text(*settings ? (*settings)->describe() : std::string())}}},
                    {"books", std::move(book_names)},
                    {"filters", {{"speeds", true}, {"ratings", true}, {"months", true}}},
                    {"version", BOOKFORGE_VERSION}};
}

}  // namespace

Api::Api(ApiStores stores, book::OpeningNames names, std::vector<NamedBook> books,
         std::unique_ptr<EngineSlots> engines)
    : stores_(std::move(stores)),
      names_(std::move(names)),
      books_(std::move(books)),
      engines_(std::move(engines)) {}

StorePool& Api::store_for(ExplorerPath path) {
  if (path == ExplorerPath::kMasters && stores_.masters) return *stores_.masters;
  if (path == ExplorerPath::kLichess && stores_.lichess) return *stores_.lichess;
  return *stores_.main;
}

namespace {

// The request's variants on `store` (counts::query_variants): set here, where the store is known.
Status settle_variants(store::Store& store, ExplorerRequest& request) {
  Result<pgn::VariantSet> held = store.variants();
  if (!held) return held.error();
  request.filter.variants = counts::query_variants(request.variant, *held);
  return ok_status();
}

}  // namespace

ApiResponse Api::explorer(const QueryParams& params, ExplorerPath path) {
  Result<QueriedPosition> position = position_from_query(params);
  if (!position) return error_response(kStatusBadRequest, position.error().message);
  Result<ExplorerRequest> request = explorer_request_from_query(params, path);
  if (!request) return error_response(kStatusBadRequest, request.error().message);
  std::optional<store::Arrival> arrival;
  PositionGames games;
  std::optional<store::History> history;
  Result<store::Exploration> exploration = [&]() -> Result<store::Exploration> {
    StorePool::Lease store = store_for(path).lease();
    if (Status s = settle_variants(*store, *request); !s) return s.error();
    // As lichess's: /masters has no history.
    if (request->history && path != ExplorerPath::kMasters) {
      Result<store::History> h = store::position_history(*store, position->board, request->filter);
      if (!h) return h.error();
      history = std::move(*h);
    }
    for (auto [order, list] : {std::pair{store::Store::GameOrder::kTopRated, &games.top},
                               std::pair{store::Store::GameOrder::kRecent, &games.recent}}) {
      Result<std::vector<store::GameRecord>> found = store->games_at(position->board.key(), order);
      if (!found) return found.error();
      *list = std::move(*found);
    }
    Result<store::Exploration> x = store::explore(*store, position->board, request->filter);
    if (!x) return x;
    std::vector<store::GameRecord> listed = games.top;
    listed.insert(listed.end(), games.recent.begin(), games.recent.end());
    Result<store::GameMoves> moves = store::game_moves(*store, *x, listed);
    if (!moves) return moves.error();
    games.moves = std::move(*moves);
    if (!position->last) return x;
    // With `play`, how the games came here: by the line's last move or by other move orders.
    Result<store::Arrival> a =
        store::arrival(*store, position->last->before, position->last->move, *x, request->filter);
    if (!a) return a.error();
    arrival = *a;
    return x;
  }();
  if (!exploration) return error_response(kStatusInternalError, exploration.error().message);
  json::Json answer = explorer_json(*exploration, arrival, position->board, names_, *request, games);
  if (history) answer["history"] = json::to_json(*history, json::Style::kApi);
  return json_response(answer);
}

ApiResponse Api::history(QueryParams params, ExplorerPath path) {
  // As lichess's /lichess/history: the explorer's answer with its history and no lists.
  for (const char* name : {"history", "moves", "topGames", "recentGames"}) params.erase(name);
  params.emplace("history", "true");
  for (const char* name : {"moves", "topGames", "recentGames"}) params.emplace(name, "0");
  return explorer(params, path);
}

ApiResponse Api::player(const QueryParams& params) {
  Result<QueriedPosition> position = position_from_query(params);
  if (!position) return error_response(kStatusBadRequest, position.error().message);
  Result<ExplorerRequest> request = explorer_request_from_query(params, ExplorerPath::kLichess);
  if (!request) return error_response(kStatusBadRequest, request.error().message);
  store::PlayerQuery query;
  query.player = find_param(params, "player").value_or("");
  if (query.player.empty()) return error_response(kStatusBadRequest, "player: a player's name is needed");
  const std::string color = find_param(params, "color").value_or("");
  if (color != "white" && color != "black")
    return error_response(kStatusBadRequest, "color: expected white or black, got " + quoted_value(color));
  query.as_white = color == "white";
  Result<uint32_t> modes = store::parse_modes(find_param(params, "modes").value_or(""));
  if (!modes) return error_response(kStatusBadRequest, modes.error().message);
  query.modes = *modes;
  query.max_recent_games = size_t(request->recent_games);
  Result<store::PlayerExploration> x = [&] {
    StorePool::Lease store = store_for(ExplorerPath::kLichess).lease();
    if (Status s = settle_variants(*store, *request); !s) return Result<store::PlayerExploration>(s.error());
    query.filter = request->filter;
    return store::explore_player(*store, position->board, query);
  }();
  if (!x) return error_response(kStatusInternalError, x.error().message);
  return json_response(
      json::to_json(json::PlayerPosition{*x, query, position->board, names_, size_t(request->max_moves),
                                         size_t(request->recent_games)},
                    json::Style::kApi));
}

ApiResponse Api::players(const QueryParams& params) {
  const std::string prefix = find_param(params, "prefix").value_or("");
  // An empty prefix would list the whole store's players: a name has to be begun.
  if (prefix.empty()) return error_response(kStatusBadRequest, "prefix: the start of a name is needed");
  Result<int> limit = int_param(params, "limit", kDefaultPlayerSuggestions, 1, kMaxPlayerSuggestions);
  if (!limit) return error_response(kStatusBadRequest, limit.error().message);
  Result<std::vector<store::PlayerName>> found = [&] {
    // The names /player finds: its store's.
    StorePool::Lease store = store_for(ExplorerPath::kLichess).lease();
    return store->players_with_prefix(prefix, *limit);
  }();
  if (!found) return error_response(kStatusInternalError, found.error().message);
  json::Json names = json::Json::array();
  for (const store::PlayerName& player : *found) names.push_back(json::to_json(player));
  return json_response(json::Json{{"players", std::move(names)}});
}

ApiResponse Api::novelty(const QueryParams& params) {
  const std::optional<std::string> pgn = find_param(params, "pgn");
  if (!pgn) return error_response(kStatusBadRequest, "pgn: a game's PGN is needed");
  Result<ExplorerRequest> request = explorer_request_from_query(params);
  if (!request) return error_response(kStatusBadRequest, request.error().message);
  Result<int> min_games = int_param(params, "minGames", 1, 1, std::numeric_limits<int>::max());
  if (!min_games) return error_response(kStatusBadRequest, min_games.error().message);
  Result<store::GameNovelty> found = [&] {
    StorePool::Lease store = stores_.main->lease();
    if (Status s = settle_variants(*store, *request); !s) return Result<store::GameNovelty>(s.error());
    return store::find_novelty_in_text(*store, *pgn, "pgn", request->filter, uint64_t(*min_games));
  }();
  // A game that does not replay is the client's error (its message starts with the parameter's
  // name, the origin given above), a 400; anything else is the store's.
  if (!found)
    return error_response(
        found.error().message.starts_with("pgn: ") ? kStatusBadRequest : kStatusInternalError,
        found.error().message);
  return json_response(json::to_json(*found));
}

ApiResponse Api::position(const QueryParams& params) const {
  Result<QueriedPosition> position = position_from_query(params);
  if (!position) return error_response(kStatusBadRequest, position.error().message);
  return json_response(position_json(*position));
}

ApiResponse Api::books(const QueryParams& params) const {
  Result<QueriedPosition> position = position_from_query(params);
  if (!position) return error_response(kStatusBadRequest, position.error().message);
  return json_response(book_moves_json(books_, position->board));
}

ApiResponse Api::engine(const QueryParams& params, const std::string& address,
                        const std::function<bool()>& client_left) {
  Result<QueriedPosition> position = position_from_query(params);
  if (!position) return error_response(kStatusBadRequest, position.error().message);
  Result<EngineRequest> request = engine_request_from_query(params);
  if (!request) return error_response(kStatusBadRequest, request.error().message);
  const std::optional<std::string> id = find_param(params, "client");
  if (id && id->size() > kMaxClientIdLength)
    return error_response(kStatusBadRequest, "client: an id of at most " +
                                                 std::to_string(kMaxClientIdLength) + " characters, got " +
                                                 quoted_value(*id));
  // The address is part of the name, so a client elsewhere cannot stop a search by its id.
  const std::string client = id ? address + " " + *id : address;
  std::optional<EngineAnswer> answer = engines_->search(client, *position, *request, client_left);
  if (!answer)
    return error_response(kStatusUnavailable, "every engine is searching for another client; try again");
  return json_response(engine_json(*answer, position->board));
}

ApiResponse Api::game(const QueryParams& params) {
  return game_text(*stores_.main, find_param(params, "id").value_or(""));
}

ApiResponse Api::masters_pgn(const std::string& id) {
  return game_text(store_for(ExplorerPath::kMasters), id);
}

ApiResponse Api::game_text(StorePool& stores, const std::string& id) {
  std::optional<store::FingerprintRange> range = store::parse_any_game_id(id);
  if (!range)
    return error_response(
        kStatusBadRequest,
        "id: not a game id (8 letters and digits, or 16 hex digits), got " + quoted_value(id));
  StorePool::Lease store = stores.lease();
  Result<std::vector<uint64_t>> found = store::stored_fingerprints(*store, *range);
  if (!found) return error_response(kStatusInternalError, found.error().message);
  if (found->empty())
    return error_response(kStatusNotFound, "game " + quoted_value(id) + ": not in the store");
  if (found->size() > 1) {
    // Two games whose short ids are the same (store/game_record.h): their full ids tell them apart.
    std::string ids;
    for (uint64_t fingerprint : *found) ids += (ids.empty() ? "" : ", ") + store::game_id(fingerprint);
    return error_response(kStatusConflict,
                          "game " + quoted_value(id) + ": several games have this id: " + ids);
  }
  Result<std::optional<std::string>> text = store::stored_game_text(*store, found->front());
  if (!text) return error_response(kStatusInternalError, text.error().message);
  if (!*text) return error_response(kStatusNotFound, "game " + quoted_value(id) + ": not in the store");
  return {kStatusOk, "application/x-chess-pgn; charset=utf-8", std::move(**text)};
}

ApiResponse Api::info() {
  if (Status made = refresh_info(); !made) return error_response(kStatusInternalError, made.error().message);
  std::lock_guard lock(info_mutex_);
  return {kStatusOk, std::string(kJsonType), info_};
}

Status Api::refresh_info() {
  std::lock_guard lock(info_mutex_);
  StorePool::Lease store = stores_.main->lease();
  // Every `db add` records a source (sources are never removed): a newer one means new counts.
  Result<int64_t> newest = store->newest_source_id();
  if (!newest) return newest.error();
  if (info_source_ == *newest) return ok_status();
  Result<json::Json> made = make_info(*store, books_);
  if (!made) return made.error();
  info_ = json::json_text(*made);
  info_source_ = *newest;
  return ok_status();
}

void Api::stop_searches() { engines_->stop_all(); }

}  // namespace bookforge::serve
