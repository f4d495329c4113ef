// The plan of a rescoring: the positions it judges, each once, in the order it judges them (key
// order), with their candidates and the limits. `build --rescore-plan` writes it instead of a
// book; `rescore PLAN --batch i/N` judges a slice of it anywhere (book/rescore_verdicts.h), and
// `build --rescore-verdicts` takes those verdicts instead of searching. The text, framed as a
// checked text (base/checked_text.h):
//
//   bookforge rescore-plan 1
//   depth 6                      the limits (RescoreLimits::lines): depth or nodes (0: not the
//   nodes 0                      limit), the engine's name ("embedded" or its file name) and the
//   engine embedded              hash per searcher in MB
//   hash 8
//   positions P
//   KEY<TAB>FEN<TAB>MOVES        P lines: the key in 16 hex digits, the full FEN, the candidates
//   ...                          in the build's order, in UCI, separated by spaces
//   end LINES HASH
//
// A candidate that is not a legal move in its position (which a book built from games never
// has) is written "~" and the move as the book stores it (book/polyglot/probe.h): it is never
// searched, and never mistaken for a legal move of the same squares.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/batch.h"
#include "base/result.h"
#include "book/candidates.h"
#include "book/verdict.h"
#include "chess/board.h"

namespace bookforge::book {

inline constexpr const char* kRescorePlanFormat = "rescore-plan";
inline constexpr int kRescorePlanVersion = 1;

// A candidate as plans and verdicts write it, and back (Move::none() for one not legal here).
std::string candidate_text(const chess::Board& board, uint16_t polyglot_move);
chess::Move candidate_move(const chess::Board& board, std::string_view text);

// The positions a rescoring judges, as indices into `positions` (in key order, as a
// CandidateTransformer gets them): each position once, even when the walk reached it twice.
std::vector<size_t> rescored_positions(std::span<const ReachablePosition> positions);

// The candidates of a position as moves on its board, in the candidates' order.
std::vector<chess::Move> candidate_moves(const ReachablePosition& position);

// Records the plan of a rescoring with these limits, and changes no candidate.
class RescorePlanner : public CandidateTransformer {
 public:
  explicit RescorePlanner(RescoreLimits limits) : limits_(std::move(limits)) {}

  Status transform(std::span<ReachablePosition> positions) override;
  const char* name() const override { return "rescore_plan"; }

  uint64_t positions() const { return lines_.size(); }
  // Writes the plan (under a temporary name until complete).
  Status write(const std::string& path) const;

 private:
  RescoreLimits limits_;
  std::vector<std::string> lines_;  // one per position
};

struct PlannedPosition {
  uint64_t key = 0;
  chess::Board board;
  std::vector<std::string> candidates;  // as written (candidate_text)
  std::vector<chess::Move> moves;       // the same as moves on the board
};

struct RescorePlan {
  RescoreLimits limits;                    // engine_path holds the engine's name
  uint64_t total = 0;                      // positions in the whole plan
  std::vector<PlannedPosition> positions;  // those of the batch read
};

// The positions of one batch of the plan at `path` (base/batch.h), the whole file checked; errors
// name the file and the line.
Result<RescorePlan> read_rescore_plan(const std::string& path, const Batch& batch);

}  // namespace bookforge::book
