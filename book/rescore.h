// The engine pass of a build: every reachable book position is searched (the embedded engine,
// or an external UCI engine) twice: once over all legal moves, for the engine's own best move
// and its score, and once over the book's candidate moves, for a score each. A candidate that
// scores more than the margin below the better of the two bests is dropped, even when it is
// the position's only move, unless its games prove it (below). Optionally ("repair"), a
// position whose candidates are all dropped gets the engine's best move instead. Popular moves
// the engine considers bad are collected for a human to look at; collecting them reads the same
// searches, so it never changes the book.
//
// Moves proven by their games are kept whatever the engine says; propagation (optional) judges
// a candidate by where its book line ends; --rescore-blend mixes the statistics' weights with
// the engine's preference. The rules and their formulas are docs/rescoring.md; rescore.cpp says
// why propagation's values lean towards the mover, and how cycles are handled.
//
// Positions are spread over threads. Each thread has its own engine and starts every position
// from a cleared state (book/verdict.h), so with a depth or node limit the result does not
// depend on the thread count or on which thread got which position; propagation runs after all
// searches, on one thread, in key order. For the same reason a position's verdict may come from
// a search made in another process (`bookforge rescore`, book/rescore_verdicts.h): the book is
// the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/candidates.h"
#include "book/verdict.h"
#include "engine/score.h"

namespace bookforge::book {

class VerdictTable;

struct RescoreOptions {
  int depth = 0;           // search depth per position...
  uint64_t nodes = 0;      // ...or node budget (exactly one of the two)
  int margin_cp = 50;      // drop candidates scoring more than this below the best move (see above)
  bool repair = false;     // where every candidate is dropped, add the engine's best move
  bool propagate = false;  // judge each candidate by the value backed up along its book line
  double blend = 0;        // 0: keep the book's weights; 1: weights from the engine's scores only
  bool proven = true;      // keep candidates their games prove (see above); false: the engine decides
  int threads = 1;
  int hash_mb = 8;              // per thread
  std::string engine_path;      // external UCI engine; empty = the embedded engine
  bool classical_eval = false;  // the embedded engine's hand-written evaluation instead of its network

  bool find_suspicious = false;
  double suspicious_share = 20;    // percent of the position's book games...
  int suspicious_margin_cp = 100;  // ...and this far below the engine's best move

  // Verdicts searched elsewhere (--rescore-verdicts), taken instead of searching the positions
  // they are for; none: every position is searched here.
  std::shared_ptr<const VerdictTable> verdicts;

  // Called now and then from one of the worker threads with positions done and total.
  std::function<void(uint64_t done, uint64_t total)> on_progress;

  // What a verdict depends on (book/verdict.h).
  RescoreLimits limits() const;
  Status validate() const;
};

// A popular book move the engine dislikes.
struct SuspiciousMove {
  std::string fen;
  std::string move;  // SAN
  double share = 0;  // percent of the position's book games
  uint32_t games = 0;
  engine::Score score = 0;  // the move's score, from the mover's point of view
  std::string best_move;    // SAN of the engine's best move (any legal move)
  engine::Score best_score = 0;
};

// A position where every candidate was dropped and the engine's best move put in their place.
struct RepairedPosition {
  std::string fen;
  std::string move;         // SAN of the move added
  engine::Score score = 0;  // its score, from the mover's point of view
  uint64_t weight = 0;
};

struct RescoreStats {
  uint64_t positions = 0;         // positions judged (searched here, or taken below)
  uint64_t taken = 0;             // of those, verdicts taken from --rescore-verdicts files
  uint64_t candidates = 0;        // candidate moves scored
  uint64_t dropped = 0;           // candidates dropped by the margin
  uint64_t emptied = 0;           // positions whose every candidate was dropped (repaired or not)
  uint64_t repaired = 0;          // of those, positions given the engine's best move
  uint64_t propagated_drops = 0;  // of `dropped`, candidates their own scores alone would have kept
  uint64_t proven_kept = 0;       // candidates beyond the margin kept because their games prove them
  int propagation_rounds = 0;     // passes over the book until no value changed a decision
  uint64_t nodes = 0;             // embedded engine only; taken verdicts' included
  double seconds = 0;
};

class Rescorer : public CandidateTransformer {
 public:
  explicit Rescorer(RescoreOptions options) : options_(std::move(options)) {}

  Status transform(std::span<ReachablePosition> positions) override;
  const char* name() const override { return "rescore"; }

  const RescoreStats& stats() const { return stats_; }
  // In key order (then by move), filled when find_suspicious is set.
  const std::vector<SuspiciousMove>& suspicious() const { return suspicious_; }
  // In key order, filled when repair is set.
  const std::vector<RepairedPosition>& repaired() const { return repaired_; }

 private:
  RescoreOptions options_;
  RescoreStats stats_;
  std::vector<SuspiciousMove> suspicious_;
  std::vector<RepairedPosition> repaired_;
};

// The expected score of a side `cp` centipawns ahead (the curve in the comment above).
double expected_score(int cp);

// The engine's share of the weight for a candidate `behind_cp` centipawns behind the best:
// halved for every `margin_cp` (a smooth preference that agrees with the drop margin).
double engine_preference(int behind_cp, int margin_cp);

// The suspicious moves as CSV: a header line, then one line per move.
std::string suspicious_csv(const std::vector<SuspiciousMove>& moves);

}  // namespace bookforge::book
