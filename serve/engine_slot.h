// The embedded engine behind /api/engine: a few engines, each lent to one client at a time.
// A client has at most one search: its new request stops the old search (which answers with
// what it had) and runs once that one has returned. A search also stops when its client goes
// away. Searches are bounded in depth and time, so no request holds an engine for long.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/search.h"
#include "json/json.h"
#include "serve/position_query.h"
#include "serve/query_params.h"

namespace bookforge::serve {

inline constexpr int kMaxEngineDepth = 30;
inline constexpr int kDefaultEngineDepth = 14;
inline constexpr int kMaxEngineMovetimeMs = 5000;
inline constexpr int kDefaultEngineMovetimeMs = 1000;

struct EngineRequest {
  int depth = kDefaultEngineDepth;
  int movetime_ms = kDefaultEngineMovetimeMs;
};

// `depth` (1..30) and `movetime` (1..5000 ms); errors name the parameter. The limit the client
// gives rules: `depth` alone searches to that depth within the longest movetime, `movetime`
// alone for that long up to the deepest depth; neither, depth 14 or 1000 ms, whichever is first.
Result<EngineRequest> engine_request_from_query(const QueryParams& params);

// Why a search ended (/api/engine's "stoppedBy"):
enum class SearchEnd {
  kDepth,           // "depth": it completed the depth asked for
  kMovetime,        // "movetime": the time ran out first
  kNewerRequest,    // "newer request": the same client asked again (a search overtaken before
                    //   it started has depth 0 and no score)
  kClientLeft,      // "client left": the client closed the connection
  kNoLegalMoves,    // "no legal moves": mate or stalemate on the board, nothing to search
  kServerStopping,  // "server stopping"
};
std::string_view search_end_name(SearchEnd end);

struct EngineAnswer {
  engine::SearchResult result;
  SearchEnd stopped_by = SearchEnd::kDepth;
};

// The search in the API's style (json/engine_json.h: {"depth", "score", "pv", "pvSan",
// "nodes"}) and why it ended: "stoppedBy".
json::Json engine_json(const EngineAnswer& answer, const chess::Board& board);

class EngineSlots {
 public:
  EngineSlots(size_t slots, size_t hash_mb);
  ~EngineSlots();

  // Searches for `client` (any stable name of the asker). `client_left`, if given, is asked
  // every few tens of milliseconds while the search runs; true stops it. nullopt when every
  // engine serves another client's search, or after stop_all().
  std::optional<EngineAnswer> search(const std::string& client, const QueriedPosition& position,
                                     const EngineRequest& request,
                                     const std::function<bool()>& client_left = nullptr);

  // Stops the searches under way and refuses new ones (for shutting the server down).
  void stop_all();

 private:
  struct Slot;
  Slot* claim(const std::string& client);
  void release(Slot& slot);
  void stop(Slot& slot, SearchEnd why);
  EngineAnswer run(Slot& slot, uint64_t ticket, const QueriedPosition& position, const EngineRequest& request,
                   const std::function<bool()>& client_left);

  std::mutex mutex_;  // guards the slots' owners, users and stop reasons, and stopping_
  std::vector<std::unique_ptr<Slot>> slots_;
  bool stopping_ = false;
};

}  // namespace bookforge::serve
