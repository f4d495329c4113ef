#include "serve/engine_slot.h"

#include <future>

#include "json/engine_json.h"

namespace bookforge::serve {
namespace {

// How often a running search asks whether its client is still there.
constexpr std::chrono::milliseconds kClientCheck{50};

}  // namespace

struct EngineSlots::Slot {
  explicit Slot(size_t hash_mb) : engine(hash_mb, 1) {}

  engine::Engine engine;
  std::timed_mutex searching;  // held for the length of one search
  std::string client;          // the client this engine serves; empty when never lent
  int users = 0;               // requests of `client` running or waiting here
  uint64_t latest = 0;         // number of the client's newest request
  std::chrono::steady_clock::time_point last_used{};
  std::optional<SearchEnd> stopped_by;  // why the search under way was told to stop
};

Result<EngineRequest> engine_request_from_query(const QueryParams& params) {
  const bool depth_given = find_param(params, "depth").has_value();
  const bool movetime_given = find_param(params, "movetime").has_value();
  Result<int> depth =
      int_param(params, "depth", movetime_given ? kMaxEngineDepth : kDefaultEngineDepth, 1, kMaxEngineDepth);
  if (!depth) return depth.error();
  Result<int> movetime =
      int_param(params, "movetime", depth_given ? kMaxEngineMovetimeMs : kDefaultEngineMovetimeMs, 1,
                kMaxEngineMovetimeMs);
  if (!movetime) return movetime.error();
  return EngineRequest{*depth, *movetime};
}

std::string_view search_end_name(SearchEnd end) {
  switch (end) {
    case SearchEnd::kDepth:
      return "depth";
    case SearchEnd::kMovetime:
      return "movetime";
    case SearchEnd::kNewerRequest:
      return "newer request";
    case SearchEnd::kClientLeft:
      return "client left";
    case SearchEnd::kNoLegalMoves:
      return "no legal moves";
    case SearchEnd::kServerStopping:
      return "server stopping";
  }
  return "";
}

json::Json engine_json(const EngineAnswer& answer, const chess::Board& board) {
  json::Json out = json::to_json(answer.result, board, json::Style::kApi);
  out["stoppedBy"] = search_end_name(answer.stopped_by);
  return out;
}

EngineSlots::EngineSlots(size_t slots, size_t hash_mb) {
  for (size_t i = 0; i < slots; ++i) slots_.push_back(std::make_unique<Slot>(hash_mb));
}

EngineSlots::~EngineSlots() { stop_all(); }

EngineSlots::Slot* EngineSlots::claim(const std::string& client) {
  Slot* chosen = nullptr;
  for (const std::unique_ptr<Slot>& slot : slots_) {
    if (slot->client == client) {
      chosen = slot.get();
      break;
    }
    // Otherwise the idle engine used longest ago.
    if (slot->users == 0 && (!chosen || slot->last_used < chosen->last_used)) chosen = slot.get();
  }
  if (!chosen) return nullptr;
  if (chosen->client != client) {
    chosen->client = client;
    chosen->engine.new_game();  // nothing learned for one client leaks into another's answers
  }
  ++chosen->users;
  return chosen;
}

void EngineSlots::release(Slot& slot) {
  std::lock_guard lock(mutex_);
  --slot.users;
  slot.last_used = std::chrono::steady_clock::now();
}

void EngineSlots::stop(Slot& slot, SearchEnd why) {
  {
    std::lock_guard lock(mutex_);
    slot.stopped_by = why;
  }
  slot.engine.stop();
}

std::optional<EngineAnswer> EngineSlots::search(const std::string& client, const QueriedPosition& position,
                                                const EngineRequest& request,
                                                const std::function<bool()>& client_left) {
  Slot* slot = nullptr;
  uint64_t ticket = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return std::nullopt;
    slot = claim(client);
    if (!slot) return std::nullopt;
    ticket = ++slot->latest;
  }
  // The client's previous search stops and answers; stop() is repeated until this request
  // holds the engine, in case that search had not started yet when the first stop() came.
  while (!slot->searching.try_lock_for(std::chrono::milliseconds(2))) stop(*slot, SearchEnd::kNewerRequest);
  EngineAnswer answer = run(*slot, ticket, position, request, client_left);
  slot->searching.unlock();
  release(*slot);
  return answer;
}

// With the slot's engine held: the search, watched for its client leaving, and why it ended.
EngineAnswer EngineSlots::run(Slot& slot, uint64_t ticket, const QueriedPosition& position,
                              const EngineRequest& request, const std::function<bool()>& client_left) {
  {
    std::lock_guard lock(mutex_);
    // A request overtaken by a newer one of the same client while it waited answers at once.
    if (stopping_) return {engine::SearchResult{}, SearchEnd::kServerStopping};
    if (slot.latest != ticket) return {engine::SearchResult{}, SearchEnd::kNewerRequest};
    slot.stopped_by.reset();
  }
  if (client_left && client_left()) return {engine::SearchResult{}, SearchEnd::kClientLeft};
  engine::SearchLimits limits;
  limits.depth = request.depth;
  limits.clock.movetime_ms = request.movetime_ms;
  std::promise<engine::SearchResult> done;
  std::future<engine::SearchResult> searched = done.get_future();
  slot.engine.start(position.board, position.history, limits, {},
                    [&done](const engine::SearchResult& result) { done.set_value(result); });
  while (searched.wait_for(kClientCheck) != std::future_status::ready) {
    bool stopping = false;
    {
      std::lock_guard lock(mutex_);
      stopping = stopping_;  // stop_all() may have come before the search began
    }
    if (stopping) stop(slot, SearchEnd::kServerStopping);
    if (client_left && client_left()) stop(slot, SearchEnd::kClientLeft);
  }
  slot.engine.wait();
  EngineAnswer answer{searched.get(), SearchEnd::kMovetime};
  std::lock_guard lock(mutex_);
  if (answer.result.best_move == chess::Move::none())
    answer.stopped_by = SearchEnd::kNoLegalMoves;
  else if (answer.result.depth >= request.depth)
    answer.stopped_by = SearchEnd::kDepth;
  else if (slot.stopped_by)
    answer.stopped_by = *slot.stopped_by;
  return answer;
}

void EngineSlots::stop_all() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  for (const std::unique_ptr<Slot>& slot : slots_) {
    slot->stopped_by = SearchEnd::kServerStopping;
    slot->engine.stop();
  }
}

}  // namespace bookforge::serve
