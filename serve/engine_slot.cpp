#include "serve/engine_slot.h"

#include "chess/san.h"

namespace bookforge::serve {

struct EngineSlots::Slot {
  explicit Slot(size_t hash_mb) : engine(hash_mb, 1) {}

  engine::Engine engine;
  std::timed_mutex searching;  // held for the length of one search
  std::string client;          // the client this engine serves; empty when never lent
  int users = 0;               // requests of `client` running or waiting here
  uint64_t latest = 0;         // number of the client's newest request
  std::chrono::steady_clock::time_point last_used{};
};

Result<EngineRequest> engine_request_from_query(const QueryParams& params) {
  EngineRequest request;
  Result<int> depth = int_param(params, "depth", kDefaultEngineDepth, 1, kMaxEngineDepth);
  if (!depth) return depth.error();
  Result<int> movetime = int_param(params, "movetime", kDefaultEngineMovetimeMs, 1, kMaxEngineMovetimeMs);
  if (!movetime) return movetime.error();
  request.depth = *depth;
  request.movetime_ms = *movetime;
  return request;
}

nlohmann::ordered_json engine_json(const engine::SearchResult& result, const chess::Board& board) {
  if (result.lines.empty()) {
    nlohmann::ordered_json score =
        board.in_check() ? nlohmann::ordered_json{{"mate", 0}} : nlohmann::ordered_json{{"cp", 0}};
    return {{"depth", result.depth},
            {"score", std::move(score)},
            {"pv", nlohmann::ordered_json::array()},
            {"pvSan", nlohmann::ordered_json::array()},
            {"nodes", result.nodes}};
  }
  const engine::PvLine& best = result.lines.front();
  nlohmann::ordered_json score = engine::is_mate_score(best.score)
                                     ? nlohmann::ordered_json{{"mate", engine::mate_in_moves(best.score)}}
                                     : nlohmann::ordered_json{{"cp", best.score}};
  nlohmann::ordered_json pv = nlohmann::ordered_json::array(), pv_san = nlohmann::ordered_json::array();
  chess::Board replay = board;
  for (chess::Move move : best.pv) {
    pv.push_back(chess::move_to_uci(move));
    pv_san.push_back(chess::move_to_san(replay, move));
    chess::UndoInfo undo;
    replay.make_move(move, undo);
  }
  return {{"depth", result.depth},
          {"score", std::move(score)},
          {"pv", std::move(pv)},
          {"pvSan", std::move(pv_san)},
          {"nodes", result.nodes}};
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

std::optional<engine::SearchResult> EngineSlots::search(const std::string& client,
                                                        const QueriedPosition& position,
                                                        const EngineRequest& request) {
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
  while (!slot->searching.try_lock_for(std::chrono::milliseconds(2))) slot->engine.stop();
  engine::SearchResult result;
  bool superseded = false;
  {
    std::lock_guard lock(mutex_);
    superseded = stopping_ || slot->latest != ticket;
  }
  // A request overtaken by a newer one of the same client while it waited answers at once.
  if (!superseded) {
    engine::SearchLimits limits;
    limits.depth = request.depth;
    limits.clock.movetime_ms = request.movetime_ms;
    result = slot->engine.search(position.board, position.history, limits);
  }
  slot->searching.unlock();
  release(*slot);
  return result;
}

void EngineSlots::stop_all() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  for (const std::unique_ptr<Slot>& slot : slots_) slot->engine.stop();
}

}  // namespace bookforge::serve
