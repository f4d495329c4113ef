// What the engine says about one book position, and the limits that alone decide it: the unit
// of work of rescoring (book/rescore.h), whether the build searches its positions itself or
// takes the verdicts of searches made elsewhere, in batches (book/rescore_plan.h,
// book/rescore_verdicts.h; docs/rescoring.md, "Rescoring in batches").
//
// Every position is judged by a searcher cleared before it, one thread per searcher, so a
// verdict depends on the position, its candidates and the limits only: not on the thread, the
// process or the machine that judged it, nor on what was judged before.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "engine/score.h"

namespace bookforge::book {

// The limits a verdict depends on. The thread count is not one of them: each searcher is one
// thread, cleared for every position.
struct RescoreLimits {
  int depth = 0;                // search depth per position...
  uint64_t nodes = 0;           // ...or node budget (exactly one of the two)
  std::string engine_path;      // external UCI engine (found on PATH without a '/'); empty = the embedded one
  int hash_mb = 8;              // per searcher
  bool classical_eval = false;  // the embedded engine with its hand-written evaluation, not the network

  // "embedded" (or "embedded-classical"), or the engine's file name: what a plan or a verdicts
  // file records, so that the same engine installed in another folder on another machine is the
  // same engine.
  std::string engine_name() const;
  // The limits as "name value" lines (depth, nodes, engine, hash), and back.
  std::vector<std::string> lines() const;
  // Reads the four lines at `lines[first...]`; errors say which line is wrong, by `where(index)`.
  static Result<RescoreLimits> from_lines(const std::vector<std::string>& lines, size_t first,
                                          const std::function<std::string(size_t)>& where);
};

// The first limit on which a verdict from `file` and this build differ, as
// "rescore depth: 8 in FILE, 6 in this build"; none when they agree.
std::optional<std::string> limits_difference(const RescoreLimits& file_limits, const std::string& file,
                                             const RescoreLimits& build);

struct Verdict {
  bool searched = false;  // false when no candidate is a legal move here (then nothing was searched)
  std::vector<engine::Score> scores;  // per candidate, kScoreNone where the move could not be scored
  chess::Move best;                   // the engine's best move over all legal moves, if it scored it
  engine::Score best_score = engine::kScoreNone;
  int best_candidate = -1;  // the candidate that is the engine's best move, if one is
  uint64_t nodes = 0;
  std::vector<char> proven;  // per candidate, filled by the build: proven by its games (rescore.h)
};

// A position to judge: its board and its candidates (Move::none() for one that is not a legal
// move here, which is never scored).
struct PositionToJudge {
  const chess::Board* board;
  std::vector<chess::Move> candidates;
};

// Judges `positions` on `threads` threads, each with its own searcher, into verdicts in the same
// order. `on_progress` (may be empty) is called now and then with positions done and total. An
// error names the position's FEN.
Result<std::vector<Verdict>> judge_positions(std::span<const PositionToJudge> positions,
                                             const RescoreLimits& limits, int threads,
                                             const std::function<void(uint64_t, uint64_t)>& on_progress);

// The verdict's fields for a position with these candidates whose searches answered `best`
// (the search of all moves' best, if scored) and `scores`: fills searched and best_candidate as
// a search would. For verdicts read back from a file.
void complete_verdict(std::span<const chess::Move> candidates, Verdict& v);

}  // namespace bookforge::book
