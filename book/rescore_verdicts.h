// Verdicts judged outside the build (`bookforge rescore PLAN --batch i/N`), one file per batch of
// a plan (book/rescore_plan.h), and the table the build takes them from (--rescore-verdicts). The
// text, framed as a checked text (base/checked_text.h):
//
//   bookforge rescore-verdicts 1
//   depth 6                       the plan's limits (RescoreLimits::lines)
//   nodes 0
//   engine embedded
//   hash 8
//   batch 1/3                     which slice of the plan (base/batch.h)
//   positions P
//   KEY<TAB>BEST SCORE NODES<TAB>MOVE SCORE MOVE SCORE ...
//   end LINES HASH
//
// One line per position of the batch, in the plan's order: the key in 16 hex digits; the
// engine's best move in UCI ("-" when it has none), its score and the nodes of both searches;
// then each candidate, as the plan writes it, with its score. Scores are the searcher's own
// (centipawns, mate scores at the ends of the range: engine/score.h), "none" where none was
// found, from the side to move's point of view.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/batch.h"
#include "base/result.h"
#include "book/rescore_plan.h"
#include "book/verdict.h"

namespace bookforge::book {

inline constexpr const char* kRescoreVerdictsFormat = "rescore-verdicts";
inline constexpr int kRescoreVerdictsVersion = 1;

// Writes the verdicts of `positions` (a batch of `plan`), one each, in order.
Status write_rescore_verdicts(const std::string& path, const RescorePlan& plan, const Batch& batch,
                              std::span<const Verdict> verdicts);

// One position's verdict as read, before it meets the build's position.
struct VerdictRecord {
  std::string where;  // "file:line", for messages
  std::string best;   // UCI or "-"
  engine::Score best_score = engine::kScoreNone;
  uint64_t nodes = 0;
  std::vector<std::string> candidates;  // as the plan writes them
  std::vector<engine::Score> scores;
};

// The verdicts of any number of files, by key.
class VerdictTable {
 public:
  // Reads `files`, refusing one whose limits differ from `build` (naming the limit), a cut or
  // damaged one, and a key found twice (naming both files).
  static Result<std::shared_ptr<const VerdictTable>> read(const std::vector<std::string>& files,
                                                          const RescoreLimits& build);

  const VerdictRecord* find(uint64_t key) const;
  size_t size() const { return records_.size(); }

 private:
  std::unordered_map<uint64_t, VerdictRecord> records_;
};

// The verdict of `record` for the build's position (key, board, candidates as moves): refused,
// naming the file and the key, when the record's candidates are not the position's.
Result<Verdict> take_verdict(const VerdictRecord& record, const ReachablePosition& position,
                             std::span<const chess::Move> candidates);

}  // namespace bookforge::book
