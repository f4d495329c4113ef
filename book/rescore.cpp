#include "book/rescore.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "book/rescore_plan.h"
#include "book/rescore_verdicts.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

// Clamped so that mate scores still give a finite preference.
int behind(engine::Score best, engine::Score s) { return std::clamp(best - s, 0, 4000); }

// The score the candidates are measured against: the better of the engine's best move (when it is
// not a candidate: a candidate is measured by its own value) and the best candidate still kept.
// With the candidates' own scores this is the better of the two bests of the same multi-line
// search (in which a candidate can come out a little above the move the search of all moves
// preferred).
engine::Score reference_score(const Verdict& v, std::span<const engine::Score> values,
                              const std::vector<char>& dropped) {
  engine::Score best = v.best_candidate < 0 ? v.best_score : engine::kScoreNone;
  for (size_t i = 0; i < values.size(); ++i)
    if (!dropped[i] && values[i] != engine::kScoreNone)
      best = best == engine::kScoreNone ? values[i] : std::max(best, values[i]);
  return best;
}

// True for a score more than the margin below the reference.
bool beyond_margin(engine::Score reference, engine::Score s, int margin_cp) {
  return reference != engine::kScoreNone && s != engine::kScoreNone && s < reference - margin_cp;
}

// Marks the kept candidates more than the margin below the reference, unless their games prove
// them; true if it marked any.
bool mark_drops(const Verdict& v, std::span<const engine::Score> values, int margin_cp,
                std::vector<char>& dropped) {
  const engine::Score reference = reference_score(v, values, dropped);
  bool marked = false;
  for (size_t i = 0; i < values.size(); ++i)
    if (!dropped[i] && !v.proven[i] && beyond_margin(reference, values[i], margin_cp))
      dropped[i] = marked = true;
  return marked;
}

// Which candidates their games prove (rescore.h): the difference between a candidate's score
// and the other candidates' together (points per game), less two standard errors, is no more
// than `max_behind` below zero. A standard error is taken at its largest, 1/2 a game, so two of
// them are sqrt(1/n + 1/r).
std::vector<char> proven_by_games(const PositionCandidates& c, double max_behind) {
  std::vector<char> proven(c.moves.size(), false);
  uint64_t games = 0, half_points = 0;
  for (const Candidate& m : c.moves) games += m.stats.games, half_points += m.stats.half_points();
  for (size_t i = 0; i < c.moves.size(); ++i) {
    const counts::TallyEntry& s = c.moves[i].stats;
    const uint64_t rest = games - s.games;
    if (s.games == 0 || rest == 0) continue;
    const double score = double(s.half_points()) / double(2 * s.games);
    const double rest_score = double(half_points - s.half_points()) / double(2 * rest);
    const double two_errors = std::sqrt(1.0 / double(s.games) + 1.0 / double(rest));
    proven[i] = score - rest_score - two_errors >= -max_behind;
  }
  return proven;
}

// Removes the marked candidates, blends the weights by `values`, and repairs a position left
// empty when asked; the repair, if one was made.
std::optional<RepairedPosition> apply(const Verdict& v, std::span<const engine::Score> values,
                                      const std::vector<char>& dropped, const RescoreOptions& o,
                                      const chess::Board& board, PositionCandidates& c, RescoreStats& stats) {
  const engine::Score best = reference_score(v, values, dropped);
  std::vector<Candidate> kept;
  std::vector<double> preference;
  uint64_t heaviest = 0;
  for (size_t i = 0; i < c.moves.size(); ++i) {
    const engine::Score s = values[i];
    heaviest = std::max(heaviest, c.moves[i].weight);
    if (dropped[i]) {
      ++stats.dropped;
      continue;
    }
    kept.push_back(c.moves[i]);
    if (v.proven[i] && beyond_margin(best, s, o.margin_cp)) ++stats.proven_kept;
    // An unscored move (not legal here, which a book built from games never has) keeps its weight.
    preference.push_back(s == engine::kScoreNone || best == engine::kScoreNone
                             ? -1
                             : engine_preference(behind(best, s), o.margin_cp));
  }
  std::optional<RepairedPosition> repaired;
  if (kept.empty()) {
    ++stats.emptied;
    // The engine's move takes the place of the dropped ones with the weight of the heaviest, so
    // that the position keeps its share of the lines that lead to it.
    if (o.repair && v.best.is_ok() && v.best_score != engine::kScoreNone) {
      Candidate added;
      added.stats.key = c.key;
      added.stats.move = chess::move_to_polyglot(v.best);
      added.stats.first_ply = uint16_t(board.game_ply());
      added.weight = std::max<uint64_t>(heaviest, 1);
      kept.push_back(added);
      ++stats.repaired;
      repaired = RepairedPosition{board.fen(), chess::move_to_san(board, v.best), v.best_score, added.weight};
    }
  }
  if (o.blend > 0) {
    uint64_t total = 0;
    double preference_sum = 0;
    for (size_t i = 0; i < preference.size(); ++i) {
      if (preference[i] < 0) continue;
      total += kept[i].weight;
      preference_sum += preference[i];
    }
    for (size_t i = 0; i < preference.size() && preference_sum > 0; ++i) {
      if (preference[i] < 0) continue;
      const double engine_weight = double(total) * preference[i] / preference_sum;
      const double blended = (1 - o.blend) * double(kept[i].weight) + o.blend * engine_weight;
      kept[i].weight = std::max<uint64_t>(1, uint64_t(std::llround(blended)));
    }
  }
  c.moves = std::move(kept);
  return repaired;
}

// Values backed up the book's own lines. The book is a graph of searched positions (keyed by
// Polyglot key, so transpositions share a node); every candidate's value, from the mover's view,
// is minus the value of the position it leads to when that position was searched too, else the
// engine's score of the move. A position's value is what the side to move can get there: the
// reference above, the better of its best kept candidate and the engine's own best move. So a
// move is judged by where its book line ends, and an opponent's book blunder never makes a bad
// move look good (the opponent can always play the engine's move instead). A position whose
// candidates are all dropped is an exit, worth the engine's best score.
//
// Values are computed depth first from every position in key order, with an on-stack mark: a
// move that returns to a position still being valued (a repetition, which a book can hold by
// transposition) keeps the engine's score of the move, since neither side has to repeat. The
// order is fixed, so the values do not depend on the threads that searched.
//
// Backed-up values only ever drop: what a candidate's own score drops stays dropped. A value
// backed up from the next position comes from a search whose last ply belongs to the other
// side, and from the best of several noisy scores, so it leans towards the mover: on the lichess
// samples the next position's score was above the move's own by a median of 4 to 24 cp a ply.
// Keeping a move on such a value would keep moves the engine rejects (on the 2017-05 sample it
// kept 2.f4 and 3.f4 in the Sicilian, and the book's regret against the position's eval rose
// from 10.3 to 16.3 cp); dropping on it still catches a line that goes wrong later, where the
// fall is larger than that lean.
class Propagation {
 public:
  Propagation(std::span<ReachablePosition> positions, const std::vector<size_t>& order,
              const std::vector<Verdict>& verdicts, bool follow_lines, int margin_cp)
      : positions_(positions), verdicts_(verdicts) {
    for (size_t i : order)
      if (verdicts[i].searched) nodes_.emplace_back().position = i;
    std::stable_sort(nodes_.begin(), nodes_.end(), [&](const Node& a, const Node& b) {
      return positions[a.position].candidates->key < positions[b.position].candidates->key;
    });
    for (Node& n : nodes_) {
      const PositionCandidates& c = *positions[n.position].candidates;
      n.values.assign(c.moves.size(), engine::kScoreNone);
      n.dropped.assign(c.moves.size(), false);
      n.children.assign(c.moves.size(), kNone);
      if (!follow_lines) continue;
      mark_drops(verdicts[n.position], verdicts[n.position].scores, margin_cp, n.dropped);
      const chess::Board& board = positions[n.position].board;
      for (size_t m = 0; m < c.moves.size(); ++m) {
        const chess::Move move = chess::polyglot_to_move(board, c.moves[m].stats.move);
        if (!move.is_ok()) continue;
        chess::Board child = board;
        chess::UndoInfo undo;
        child.make_move(move, undo);
        n.children[m] = find(child.key());
      }
    }
  }

  // Values under the current drops, then drops under those values; false when nothing changed.
  // Rounds start from the drops of the candidates' own scores (with propagation).
  bool round(int margin_cp) {
    for (Node& n : nodes_) n.state = State::kNew;
    for (size_t n = 0; n < nodes_.size(); ++n)
      if (nodes_[n].state == State::kNew) back_up(n);
    bool changed = false;
    for (Node& n : nodes_)
      if (mark_drops(verdicts_[n.position], n.values, margin_cp, n.dropped)) changed = true;
    return changed;
  }

  struct Node {
    size_t position;                           // in the span given
    std::vector<size_t> children;              // per candidate: the node it leads to, or kNone
    std::vector<engine::Score> values;         // per candidate, from the last round
    std::vector<char> dropped;                 // per candidate; once dropped, dropped for good
    engine::Score value = engine::kScoreNone;  // of the position, from the last round
    enum class State { kNew, kOnStack, kDone } state = State::kNew;
  };
  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  using State = Node::State;
  static constexpr size_t kNone = size_t(-1);

  size_t find(uint64_t key) const {
    auto it = std::lower_bound(nodes_.begin(), nodes_.end(), key, [&](const Node& n, uint64_t k) {
      return positions_[n.position].candidates->key < k;
    });
    return it != nodes_.end() && positions_[it->position].candidates->key == key ? size_t(it - nodes_.begin())
                                                                                 : kNone;
  }

  void back_up(size_t index) {
    nodes_[index].state = State::kOnStack;
    const Verdict& v = verdicts_[nodes_[index].position];
    for (size_t m = 0; m < v.scores.size(); ++m) {
      engine::Score value = v.scores[m];
      if (const size_t child = nodes_[index].children[m]; child != kNone) {
        if (nodes_[child].state == State::kNew) back_up(child);
        if (nodes_[child].state == State::kDone && nodes_[child].value != engine::kScoreNone)
          value = -nodes_[child].value;
      }
      nodes_[index].values[m] = value;
    }
    Node& n = nodes_[index];
    n.value = reference_score(v, n.values, n.dropped);
    if (n.value == engine::kScoreNone) n.value = v.best_score;
    n.state = State::kDone;
  }

  std::span<ReachablePosition> positions_;
  const std::vector<Verdict>& verdicts_;
  std::vector<Node> nodes_;  // the searched positions, in key order
};

// The candidates of one position that propagation dropped and their own scores kept.
void count_propagated(const Verdict& v, const std::vector<char>& dropped, int margin_cp,
                      RescoreStats& stats) {
  std::vector<char> own(dropped.size(), false);
  mark_drops(v, v.scores, margin_cp, own);
  for (size_t i = 0; i < dropped.size(); ++i) stats.propagated_drops += dropped[i] && !own[i];
}

void collect_suspicious(const Verdict& v, const RescoreOptions& o, const ReachablePosition& pos,
                        std::vector<SuspiciousMove>& out) {
  if (!v.best.is_ok() || v.best_score == engine::kScoreNone) return;
  uint64_t games = 0;
  for (const Candidate& c : pos.candidates->moves) games += c.stats.games;
  if (games == 0) return;
  for (size_t i = 0; i < pos.candidates->moves.size(); ++i) {
    const Candidate& c = pos.candidates->moves[i];
    const double share = 100.0 * double(c.stats.games) / double(games);
    const engine::Score s = v.scores[i];
    if (s == engine::kScoreNone || share < o.suspicious_share || s > v.best_score - o.suspicious_margin_cp)
      continue;
    const chess::Move m = chess::polyglot_to_move(pos.board, c.stats.move);
    out.push_back({pos.board.fen(), chess::move_to_san(pos.board, m), share, c.stats.games, s,
                   chess::move_to_san(pos.board, v.best), v.best_score});
  }
}

std::string score_text(engine::Score s) {
  std::string text = engine::is_mate_score(s) ? "#" : "";
  text += std::to_string(engine::is_mate_score(s) ? engine::mate_in_moves(s) : s);
  return text;
}

}  // namespace

double expected_score(int cp) { return 1.0 / (1.0 + std::exp(-0.00368208 * double(cp))); }

double engine_preference(int behind_cp, int margin_cp) {
  if (margin_cp <= 0) return behind_cp == 0 ? 1.0 : 0.0;
  return std::exp2(-double(behind_cp) / double(margin_cp));
}

RescoreLimits RescoreOptions::limits() const { return {depth, nodes, engine_path, hash_mb, classical_eval}; }

Status RescoreOptions::validate() const {
  if ((depth > 0) == (nodes > 0)) return Error{"rescoring needs exactly one of a depth or a node limit"};
  if (depth < 0 || depth >= engine::kMaxPly)
    return Error{"rescore depth must be 1.." + std::to_string(engine::kMaxPly - 1)};
  if (margin_cp < 0) return Error{"rescore margin must not be negative"};
  if (blend < 0 || blend > 1) return Error{"rescore blend must be between 0 and 1"};
  if (threads < 1) return Error{"rescoring needs at least one thread"};
  if (suspicious_share < 0 || suspicious_share > 100) return Error{"suspicious share must be 0..100 percent"};
  if (suspicious_margin_cp < 0) return Error{"suspicious margin must not be negative"};
  return ok_status();
}

Status Rescorer::transform(std::span<ReachablePosition> positions) {
  if (Status s = options_.validate(); !s.ok()) return s;
  const auto start = std::chrono::steady_clock::now();

  // Each position once, in key order: from the verdicts given (--rescore-verdicts), the others
  // searched here.
  const std::vector<size_t> order = rescored_positions(positions);
  std::vector<Verdict> verdicts(positions.size());
  std::vector<PositionToJudge> to_search;
  std::vector<size_t> searched_index;  // to_search[k] is positions[searched_index[k]]
  for (size_t i : order) {
    std::vector<chess::Move> moves = candidate_moves(positions[i]);
    if (const VerdictRecord* record =
            options_.verdicts ? options_.verdicts->find(positions[i].candidates->key) : nullptr) {
      Result<Verdict> taken = take_verdict(*record, positions[i], moves);
      if (!taken) return taken.error();
      verdicts[i] = std::move(*taken);
      stats_.taken += verdicts[i].searched;  // as `positions` counts them
      continue;
    }
    to_search.push_back({&positions[i].board, std::move(moves)});
    searched_index.push_back(i);
  }
  Result<std::vector<Verdict>> searched =
      judge_positions(to_search, options_.limits(), options_.threads, options_.on_progress);
  if (!searched) return Error{"rescoring failed: " + searched.error().message};
  for (size_t k = 0; k < searched_index.size(); ++k) verdicts[searched_index[k]] = std::move((*searched)[k]);
  const double max_behind = expected_score(options_.margin_cp) - 0.5;
  for (size_t i : order)
    verdicts[i].proven = options_.proven ? proven_by_games(*positions[i].candidates, max_behind)
                                         : std::vector<char>(positions[i].candidates->moves.size(), false);

  // Decide in key order, so that the result and the suspicious list are the same however the
  // positions were shared out. Without propagation every candidate has its own score and one
  // round settles it; with it, rounds repeat until no drop changes a value (drops are for good,
  // so this ends).
  Propagation propagation(positions, order, verdicts, options_.propagate, options_.margin_cp);
  do ++stats_.propagation_rounds;
  while (propagation.round(options_.margin_cp) && options_.propagate);
  for (const Propagation::Node& n : propagation.nodes()) {
    const size_t i = n.position;
    const Verdict& v = verdicts[i];
    ++stats_.positions;
    stats_.nodes += v.nodes;
    for (engine::Score s : v.scores) stats_.candidates += s != engine::kScoreNone;
    if (options_.find_suspicious) collect_suspicious(v, options_, positions[i], suspicious_);
    if (options_.propagate) count_propagated(v, n.dropped, options_.margin_cp, stats_);
    if (std::optional<RepairedPosition> repair =
            apply(v, n.values, n.dropped, options_, positions[i].board, *positions[i].candidates, stats_))
      repaired_.push_back(std::move(*repair));
  }
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ok_status();
}

std::string suspicious_csv(const std::vector<SuspiciousMove>& moves) {
  std::string out = "fen,move,share,games,score,best_move,best_score\n";
  char share[32];
  for (const SuspiciousMove& m : moves) {
    std::snprintf(share, sizeof share, "%.1f", m.share);
    for (const std::string& field :
         {m.fen, m.move, std::string(share), std::to_string(m.games), score_text(m.score), m.best_move}) {
      out += field;
      out += ',';
    }
    out += score_text(m.best_score);
    out += '\n';
  }
  return out;
}

}  // namespace bookforge::book
