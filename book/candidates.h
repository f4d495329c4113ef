// A position's candidate moves after the selection rules, and the hook through which an
// optional pass (the engine rescoring of book/rescore.*) reshapes them before they are written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"
#include "chess/board.h"
#include "counts/entry.h"

namespace bookforge::book {

struct Candidate {
  counts::TallyEntry stats;  // everything counted for this move (stats.move is the Polyglot move)
  uint64_t weight = 0;       // unscaled; the writer scales each position into 1..65535 at the end
};

struct PositionCandidates {
  uint64_t key = 0;
  std::vector<Candidate> moves;  // by move, ascending
};

// A position reached from the start position through kept moves, with its board: a key alone
// does not give a board, so only reachable positions can be looked at by an engine.
struct ReachablePosition {
  chess::Board board;
  PositionCandidates* candidates;
  int depth;  // plies from the start position along the shortest kept line
};

// Reshapes the candidates of every reachable position (drops moves, changes weights). Called
// once, with all reachable positions in key order, so that an implementation can spread them
// over threads. A position whose moves are all dropped is left out of the book. Positions that
// are not reachable are written as the rules left them (or pruned with --prune-unreachable).
class CandidateTransformer {
 public:
  virtual ~CandidateTransformer() = default;
  virtual Status transform(std::span<ReachablePosition> positions) = 0;
  // A name for the build report ("rescore").
  virtual const char* name() const = 0;
};

}  // namespace bookforge::book
