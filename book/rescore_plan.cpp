#include "book/rescore_plan.h"

#include <algorithm>

#include "base/checked_text.h"
#include "base/hex.h"
#include "base/text_fields.h"
#include "book/polyglot/probe.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

constexpr char kNotLegal = '~';

// One position's line: key, FEN and candidates, or an error that says what is wrong with it.
Result<PlannedPosition> parse_position(const std::string& line) {
  const size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
  PlannedPosition p;
  if (tab1 == std::string::npos || tab2 == std::string::npos || !parse_hex64(line.substr(0, tab1), p.key))
    return Error{"expected KEY<TAB>FEN<TAB>MOVES"};
  Result<chess::Board> board = chess::Board::from_fen(line.substr(tab1 + 1, tab2 - tab1 - 1));
  if (!board) return board.error();
  p.board = *board;
  if (p.board.key() != p.key) return Error{"the key " + hex64(p.key) + " is not that of the FEN"};
  for (std::string_view word : split_fields(std::string_view(line).substr(tab2 + 1)))
    p.candidates.emplace_back(word);
  if (p.candidates.empty()) return Error{"no candidate move"};
  for (const std::string& text : p.candidates) {
    const chess::Move m = candidate_move(p.board, text);
    if (!m.is_ok() && text[0] != kNotLegal) return Error{"'" + text + "' is not a legal move here"};
    p.moves.push_back(m);
  }
  return p;
}

}  // namespace

std::string candidate_text(const chess::Board& board, uint16_t polyglot_move) {
  const chess::Move m = chess::polyglot_to_move(board, polyglot_move);
  return m.is_ok() ? chess::move_to_uci(m) : kNotLegal + polyglot_move_text(polyglot_move);
}

chess::Move candidate_move(const chess::Board& board, std::string_view text) {
  if (text.empty() || text[0] == kNotLegal) return chess::Move::none();
  return chess::uci_to_move(board, text);
}

std::vector<size_t> rescored_positions(std::span<const ReachablePosition> positions) {
  std::vector<size_t> by_pointer(positions.size());
  for (size_t i = 0; i < by_pointer.size(); ++i) by_pointer[i] = i;
  std::stable_sort(by_pointer.begin(), by_pointer.end(),
                   [&](size_t a, size_t b) { return positions[a].candidates < positions[b].candidates; });
  std::vector<size_t> order;
  for (size_t k = 0; k < by_pointer.size(); ++k)
    if (k == 0 || positions[by_pointer[k]].candidates != positions[by_pointer[k - 1]].candidates)
      order.push_back(by_pointer[k]);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<chess::Move> candidate_moves(const ReachablePosition& position) {
  std::vector<chess::Move> moves;
  moves.reserve(position.candidates->moves.size());
  for (const Candidate& c : position.candidates->moves)
    moves.push_back(chess::polyglot_to_move(position.board, c.stats.move));
  return moves;
}

Status RescorePlanner::transform(std::span<ReachablePosition> positions) {
  for (size_t i : rescored_positions(positions)) {
    const ReachablePosition& p = positions[i];
    std::string line = hex64(p.candidates->key) + '\t' + p.board.fen() + '\t';
    for (size_t m = 0; m < p.candidates->moves.size(); ++m) {
      if (m) line += ' ';
      line += candidate_text(p.board, p.candidates->moves[m].stats.move);
    }
    lines_.push_back(std::move(line));
  }
  return ok_status();
}

Status RescorePlanner::write(const std::string& path) const {
  Result<CheckedTextWriter> out = CheckedTextWriter::create(path, kRescorePlanFormat, kRescorePlanVersion);
  if (!out) return out.error();
  std::vector<std::string> header = limits_.lines();
  header.push_back("positions " + std::to_string(lines_.size()));
  for (const std::string& line : header)
    if (Status s = out->add_line(line); !s.ok()) return s;
  for (const std::string& line : lines_)
    if (Status s = out->add_line(line); !s.ok()) return s;
  return out->commit();
}

Result<RescorePlan> read_rescore_plan(const std::string& path, const Batch& batch) {
  Result<CheckedText> text = read_checked_text(path, kRescorePlanFormat, kRescorePlanVersion);
  if (!text) return text.error();
  const std::vector<std::string>& lines = text->lines;
  auto where = [&](size_t index) { return text->where(index); };
  RescorePlan plan;
  Result<RescoreLimits> limits = RescoreLimits::from_lines(lines, 0, where);
  if (!limits) return limits.error();
  plan.limits = std::move(*limits);
  constexpr size_t kFirst = 5;  // the four limits and the count
  const std::string count = "positions " + std::to_string(lines.size() - std::min(lines.size(), kFirst));
  if (lines.size() < kFirst || lines[kFirst - 1] != count)
    return Error{where(std::min(lines.size(), kFirst - 1)) + ": expected '" + count + "'"};
  plan.total = lines.size() - kFirst;
  for (size_t k = batch.begin(plan.total); k < batch.end(plan.total); ++k) {
    Result<PlannedPosition> p = parse_position(lines[kFirst + k]);
    if (!p) return Error{where(kFirst + k) + ": " + p.error().message};
    if (!plan.positions.empty() && p->key <= plan.positions.back().key)
      return Error{where(kFirst + k) + ": the keys are not in ascending order"};
    plan.positions.push_back(std::move(*p));
  }
  return plan;
}

}  // namespace bookforge::book
