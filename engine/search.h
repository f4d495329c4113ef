// The embedded engine as a library: iterative deepening PVS alpha-beta over a shared
// transposition table. It reports through callbacks (one call per UCI "info" line) and
// returns its result; engine/uci.* only turns those into text.
//
// With one thread, a search limited by depth or nodes is deterministic: the same position,
// history and limits give the same node count and the same result, provided the engine
// starts from the same state (a fresh Engine, or new_game() before the search).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "engine/score.h"
#include "engine/timeman.h"
#include "engine/tt.h"

namespace bookforge::engine {

struct SearchLimits {
  int depth = 0;          // maximum iteration depth; 0 = none
  uint64_t nodes = 0;     // node budget; 0 = none
  ClockLimits clock;      // movetime or the UCI clock; nothing set = no time limit
  bool infinite = false;  // search until stopped (for the asynchronous search: report only then)
  bool ponder = false;    // pondering: the clock counts only from ponderhit()
  int multipv = 1;        // number of best root moves to search with exact scores
  std::vector<chess::Move> search_moves;  // restrict the root to these moves (empty = all legal moves)
};

// One principal variation, as UCI's "info ... multipv N ... pv ..." reports it.
struct PvLine {
  chess::Move move;
  Score score = -kScoreInfinite;
  Bound bound = Bound::kExact;  // kLower / kUpper while an aspiration window has failed
  int depth = 0;
  int seldepth = 0;
  std::vector<chess::Move> pv;  // pv[0] == move
};

struct SearchInfo {
  int multipv = 1;  // 1-based rank of this line
  PvLine line;
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  int hashfull = 0;  // permille
};

struct SearchListener {
  std::function<void(const SearchInfo&)> on_info;
  // The root move being searched (UCI "currmove"); sent only after the first seconds.
  std::function<void(int depth, chess::Move move, int number)> on_currmove;
};

struct SearchResult {
  chess::Move best_move;      // Move::none() when the root has no legal move
  chess::Move ponder_move;    // the expected reply, if known
  std::vector<PvLine> lines;  // min(multipv, root moves) lines, best first
  int depth = 0;              // last completed iteration
  uint64_t nodes = 0;
  int64_t time_ms = 0;
};

class SearchWorker;

class Engine {
 public:
  explicit Engine(size_t hash_mb = 16, int threads = 1);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Options. Not to be called while a search runs.
  Status set_hash(size_t megabytes);
  void set_threads(int threads);
  void set_move_overhead(int64_t ms) { move_overhead_ms_ = ms; }
  int threads() const { return int(workers_.size()); }
  // Forgets everything learned (TT and move-ordering histories).
  void new_game();

  // Searches `root`. `history` holds the keys of the game positions before the root, oldest
  // first (for repetition detection). Blocks until the search ends; callbacks run on the
  // calling thread.
  SearchResult search(const chess::Board& root, const std::vector<uint64_t>& history,
                      const SearchLimits& limits, const SearchListener& listener = {});

  // The same on a background thread (what UCI needs). `on_done` runs on that thread once the
  // search has ended and, for infinite or ponder searches, stop() or ponderhit() has come.
  // A search still running must be stopped first (start waits for it).
  void start(const chess::Board& root, const std::vector<uint64_t>& history, const SearchLimits& limits,
             const SearchListener& listener, std::function<void(const SearchResult&)> on_done);
  // Both are safe to call from any thread at any time; neither waits.
  void stop();
  void ponderhit();
  // Waits for a search started with start() to finish (after its on_done).
  void wait();
  bool searching() const { return searching_.load(); }

 private:
  friend class SearchWorker;
  SearchResult run(const chess::Board& root, const std::vector<uint64_t>& history, const SearchLimits& limits,
                   const SearchListener& listener);
  int64_t elapsed_ms() const;

  TranspositionTable tt_;
  std::vector<std::unique_ptr<SearchWorker>> workers_;
  int64_t move_overhead_ms_ = 30;

  std::atomic<bool> stop_{false};            // every worker polls it; set by limits or stop()
  std::atomic<bool> stop_requested_{false};  // only stop(): ends the wait of an infinite search
  std::atomic<bool> pondering_{false};
  std::atomic<int64_t> start_time_ms_{0};  // steady clock; moved to the ponderhit time

  std::thread thread_;
  std::atomic<bool> searching_{false};
  std::mutex wait_mutex_;
  std::condition_variable wait_cv_;
};

}  // namespace bookforge::engine
