#include "book/rescore_verdicts.h"

#include "base/checked_text.h"
#include "base/hex.h"
#include "base/text_fields.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

constexpr const char* kNoScore = "none";
constexpr const char* kNoMove = "-";
constexpr size_t kFirstRecord = 6;  // the four limits, the batch and the count

std::string score_token(engine::Score s) { return s == engine::kScoreNone ? kNoScore : std::to_string(s); }

bool parse_score(std::string_view text, engine::Score& s) {
  if (text == kNoScore) {
    s = engine::kScoreNone;
    return true;
  }
  return parse_whole(text, s) && s >= -engine::kScoreInfinite && s <= engine::kScoreInfinite;
}

std::string verdict_line(const PlannedPosition& p, const Verdict& v) {
  std::string line = hex64(p.key) + '\t' + (v.best.is_ok() ? chess::move_to_uci(v.best) : kNoMove) + ' ' +
                     score_token(v.best_score) + ' ' + std::to_string(v.nodes) + '\t';
  for (size_t i = 0; i < p.candidates.size(); ++i) {
    if (i) line += ' ';
    line += p.candidates[i] + ' ' + score_token(v.scores[i]);
  }
  return line;
}

// One position's line, or an error that says what is wrong with it.
Result<std::pair<uint64_t, VerdictRecord>> parse_record(const std::string& line) {
  const size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
  uint64_t key = 0;
  if (tab1 == std::string::npos || tab2 == std::string::npos || !parse_hex64(line.substr(0, tab1), key))
    return Error{"expected KEY<TAB>BEST SCORE NODES<TAB>MOVE SCORE ..."};
  VerdictRecord r;
  const std::vector<std::string_view> best =
      split_fields(std::string_view(line).substr(tab1 + 1, tab2 - tab1 - 1));
  const std::vector<std::string_view> moves = split_fields(std::string_view(line).substr(tab2 + 1));
  if (best.size() != 3 || !parse_score(best[1], r.best_score) || !parse_whole(best[2], r.nodes))
    return Error{"expected BEST SCORE NODES"};
  r.best = best[0];
  if (moves.empty() || moves.size() % 2 != 0) return Error{"expected candidate moves, each with its score"};
  for (size_t i = 0; i < moves.size(); i += 2) {
    r.candidates.emplace_back(moves[i]);
    if (!parse_score(moves[i + 1], r.scores.emplace_back()))
      return Error{"not a score: " + std::string(moves[i + 1])};
  }
  return std::pair{key, std::move(r)};
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) {
    if (!text.empty()) text += ' ';
    text += w;
  }
  return text;
}

}  // namespace

Status write_rescore_verdicts(const std::string& path, const RescorePlan& plan, const Batch& batch,
                              std::span<const Verdict> verdicts) {
  Result<CheckedTextWriter> out =
      CheckedTextWriter::create(path, kRescoreVerdictsFormat, kRescoreVerdictsVersion);
  if (!out) return out.error();
  std::vector<std::string> lines = plan.limits.lines();
  lines.push_back("batch " + batch.describe());
  lines.push_back("positions " + std::to_string(plan.positions.size()));
  for (size_t i = 0; i < plan.positions.size(); ++i)
    lines.push_back(verdict_line(plan.positions[i], verdicts[i]));
  for (const std::string& line : lines)
    if (Status s = out->add_line(line); !s.ok()) return s;
  return out->commit();
}

Result<std::shared_ptr<const VerdictTable>> VerdictTable::read(const std::vector<std::string>& files,
                                                               const RescoreLimits& build) {
  auto table = std::make_shared<VerdictTable>();
  for (const std::string& file : files) {
    Result<CheckedText> text = read_checked_text(file, kRescoreVerdictsFormat, kRescoreVerdictsVersion);
    if (!text) return text.error();
    const std::vector<std::string>& lines = text->lines;
    auto where = [&](size_t index) { return text->where(index); };
    Result<RescoreLimits> limits = RescoreLimits::from_lines(lines, 0, where);
    if (!limits) return limits.error();
    if (std::optional<std::string> differs = limits_difference(*limits, file, build)) return Error{*differs};
    if (lines.size() < kFirstRecord || !lines[4].starts_with("batch ") || !parse_batch(lines[4].substr(6)))
      return Error{where(std::min<size_t>(lines.size(), 4)) + ": expected 'batch i/N'"};
    const std::string count = "positions " + std::to_string(lines.size() - kFirstRecord);
    if (lines[5] != count) return Error{where(5) + ": expected '" + count + "'"};
    for (size_t k = kFirstRecord; k < lines.size(); ++k) {
      Result<std::pair<uint64_t, VerdictRecord>> record = parse_record(lines[k]);
      if (!record) return Error{where(k) + ": " + record.error().message};
      record->second.where = where(k);
      auto [it, added] = table->records_.try_emplace(record->first, std::move(record->second));
      if (!added)
        return Error{"position " + hex64(record->first) + " has a verdict in " + it->second.where +
                     " and in " + where(k) + ": give each batch once"};
    }
  }
  return std::shared_ptr<const VerdictTable>(std::move(table));
}

const VerdictRecord* VerdictTable::find(uint64_t key) const {
  auto it = records_.find(key);
  return it == records_.end() ? nullptr : &it->second;
}

Result<Verdict> take_verdict(const VerdictRecord& record, const ReachablePosition& position,
                             std::span<const chess::Move> candidates) {
  const chess::Board& board = position.board;
  std::vector<std::string> here;
  for (const Candidate& c : position.candidates->moves) here.push_back(candidate_text(board, c.stats.move));
  const std::string key = hex64(position.candidates->key);
  if (here != record.candidates)
    return Error{record.where + ": position " + key + ": candidates " + joined(record.candidates) +
                 " in the verdicts, " + joined(here) +
                 " in this build (verdicts of a plan made with other inputs or rules?)"};
  Verdict v;
  v.scores = record.scores;
  v.best_score = record.best_score;
  v.nodes = record.nodes;
  if (record.best != kNoMove) {
    v.best = chess::uci_to_move(board, record.best);
    if (!v.best.is_ok())
      return Error{record.where + ": position " + key + ": the best move " + record.best + " is not legal"};
  }
  complete_verdict(candidates, v);
  return v;
}

}  // namespace bookforge::book
