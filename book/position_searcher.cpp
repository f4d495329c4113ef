#include "book/position_searcher.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "engine/nnue.h"
#include "engine/uci_client.h"

namespace bookforge::book {

PositionSearcher::PositionSearcher(RescoreLimits limits) : limits_(std::move(limits)) {}

PositionSearcher::~PositionSearcher() = default;

Status PositionSearcher::start() {
  if (limits_.engine_path.empty()) {
    engine_ = std::make_unique<engine::Engine>(size_t(limits_.hash_mb), 1);
    return ok_status();
  }
  auto client = engine::UciClient::launch(limits_.engine_path,
                                          {{"Threads", "1"}, {"Hash", std::to_string(limits_.hash_mb)}});
  if (!client.ok()) return client.error();
  client_ = std::move(*client);
  return ok_status();
}

std::string PositionSearcher::external_name() const { return client_ ? client_->name() : ""; }

Result<engine::SearchResult> PositionSearcher::search(const chess::Board& board,
                                                      const std::vector<chess::Move>& moves, int multipv,
                                                      bool fresh) {
  engine::SearchLimits limits;
  limits.depth = limits_.depth;
  limits.nodes = limits_.nodes;
  limits.multipv = multipv;
  limits.search_moves = moves;
  if (engine_) {
    if (fresh) engine_->new_game();
    return engine_->search(board, {}, limits);
  }
  if (fresh)
    if (Status s = client_->new_game(); !s.ok()) return s.error();
  return client_->search(board, limits);
}

Status search_each(size_t count, const RescoreLimits& limits, int threads,
                   const std::function<Status(PositionSearcher&, size_t)>& task) {
  if (count == 0) return ok_status();  // an external engine is not even started
  // The embedded engine's evaluation is chosen for the whole process: one rescoring runs at a time.
  if (limits.engine_path.empty()) engine::nnue::set_use_network(!limits.classical_eval);
  std::atomic<size_t> next{0};
  std::mutex failure_mutex;
  std::string failure;
  auto fail = [&](const std::string& message) {
    std::lock_guard lock(failure_mutex);
    if (failure.empty()) failure = message;
    next.store(count);
  };
  auto worker = [&] {
    PositionSearcher searcher(limits);
    if (Status s = searcher.start(); !s.ok()) return fail(s.error().message);
    for (size_t k; (k = next.fetch_add(1)) < count;)
      if (Status s = task(searcher, k); !s.ok()) return fail(s.error().message);
  };
  const int workers = std::max(1, std::min<int>(threads, int(count)));
  std::vector<std::jthread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(worker);
  worker();
  pool.clear();
  if (!failure.empty()) return Error{failure};
  return ok_status();
}

}  // namespace bookforge::book
