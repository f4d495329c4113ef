// The embedded engine behind /api/engine: a few engines, each lent to one client at a time.
// A client has at most one search: its new request stops the old search (which answers with
// what it had) and runs once that one has returned. Searches are bounded in depth and time, so
// no request holds an engine for long.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/search.h"
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

// `depth` (1..30) and `movetime` (1..5000 ms); errors name the parameter.
Result<EngineRequest> engine_request_from_query(const QueryParams& params);

// {"depth", "score": {"cp"} | {"mate"}, "pv", "pvSan", "nodes"}, the score from the side to
// move's view; a position without legal moves scores {"mate": 0} when mated, {"cp": 0} when
// stalemated, with an empty pv.
nlohmann::ordered_json engine_json(const engine::SearchResult& result, const chess::Board& board);

class EngineSlots {
 public:
  EngineSlots(size_t slots, size_t hash_mb);
  ~EngineSlots();

  // Searches for `client` (any stable name of the asker, such as its address). nullopt when
  // every engine serves another client's search, or after stop_all().
  std::optional<engine::SearchResult> search(const std::string& client, const QueriedPosition& position,
                                             const EngineRequest& request);

  // Stops the searches under way and refuses new ones (for shutting the server down).
  void stop_all();

 private:
  struct Slot;
  Slot* claim(const std::string& client);
  void release(Slot& slot);

  std::mutex mutex_;  // guards the slots' owners and users, and stopping_
  std::vector<std::unique_ptr<Slot>> slots_;
  bool stopping_ = false;
};

}  // namespace bookforge::serve
