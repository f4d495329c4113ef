#include "engine/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "chess/check_info.h"
#include "chess/movegen.h"
#include "engine/cycle.h"
#include "engine/eval.h"
#include "engine/history.h"
#include "engine/movepick.h"
#include "engine/see.h"

namespace bookforge::engine {
namespace {
int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Late-move reductions grow with the logarithm of both the depth and the move number.
struct ReductionTable {
  int r[64][64];
  ReductionTable() {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m)
        r[d][m] = d == 0 || m == 0 ? 0 : int(0.8 + std::log(d) * std::log(m) / 2.4);
  }
};
const ReductionTable kReductions;
int reduction(int depth, int move_count) {
  return kReductions.r[std::min(depth, 63)][std::min(move_count, 63)];
}

int stat_bonus(int depth) { return std::min(16 * depth * depth + 64 * depth - 64, 1800); }

// Late-move pruning: at low depth, quiet moves after this many are not searched.
int late_move_count(int depth, bool improving) { return (3 + depth * depth) / (improving ? 1 : 2); }

bool has_non_pawn_material(const chess::Board& b, chess::Color c) {
  return (b.pieces(c) & ~b.pieces(chess::kPawn) & ~b.pieces(chess::kKing)) != 0;
}

bool is_quiet(const chess::Board& b, chess::Move m) {
  return !b.is_capture(m) && m.kind() != chess::Move::kPromotion;
}

enum class NodeType { kNonPv, kPv, kRoot };

constexpr int kAspirationDelta = 15;
constexpr int64_t kCurrmoveAfterMs = 3000;  // UCI GUIs only want currmove lines in long searches

// Forward-pruning margins in centipawns (chosen with node-limited WAC runs: the tactical
// cost of pruning against the depth it buys).
constexpr int kRazorMargin = 200, kRazorPerDepth = 220;        // razoring, depth <= 3
constexpr int kReverseFutilityPerDepth = 100;                  // reverse futility, depth <= 8
constexpr int kFutilityMargin = 150, kFutilityPerDepth = 140;  // quiet moves, LMR depth < 8
constexpr int kQuietSeePerDepth2 = 25;                         // quiet moves: SEE >= -25 * d^2
constexpr int kCaptureSeePerDepth = 100;                       // captures: SEE >= -100 * d, depth <= 6
constexpr int kDeltaMargin = 180;                              // quiescence delta pruning
constexpr int kDoubleExtensionMargin = 20;                     // singular by this much more: 2 plies
constexpr int kMaxDoubleExtensions = 6;                        // per line

}  // namespace

// One search thread: its own board, key history, stack and move-ordering statistics; the
// transposition table, the stop flag and the clock belong to the Engine.
class SearchWorker {
 public:
  SearchWorker(Engine& engine, int id) : engine_(engine), id_(id), history_(std::make_unique<History>()) {
    history_->clear();
  }

  void new_game() { history_->clear(); }
  void prepare(const chess::Board& root, const std::vector<uint64_t>& history, const SearchLimits& limits,
               const std::vector<chess::Move>& root_moves, const TimeBudget& budget,
               const SearchListener* listener);
  void iterate();
  SearchResult result() const;
  uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }

 private:
  // Per-ply search state. stack_[ply + kStackOffset] is ply's frame, so a frame can always
  // look a few plies back.
  struct Frame {
    chess::Move move;                      // the move made from this ply
    chess::Piece moved = chess::kNoPiece;  // the piece that made it
    PieceToHistory* cont = nullptr;        // continuation history keyed by that move
    chess::Move killers[2];
    Score static_eval = kScoreNone;
    int plies_from_null = 0;    // positions back that may count for repetition
    chess::Move excluded;       // the move a singular-extension search leaves out, or none
    int double_extensions = 0;  // two-ply extensions on the way here from the root
  };
  static constexpr int kStackOffset = 4;

  struct RootMove {
    chess::Move move;
    Score score = -kScoreInfinite;  // this iteration; -kScoreInfinite until proven best-so-far
    Score previous_score = -kScoreInfinite;
    Bound bound = Bound::kExact;
    int seldepth = 0;
    std::vector<chess::Move> pv;
    bool operator<(const RootMove& o) const {
      return score != o.score ? score > o.score : previous_score > o.previous_score;
    }
  };

  template <NodeType kType>
  Score search(Score alpha, Score beta, int depth, int ply, bool cut_node);
  // depth is 0 at the first quiescence ply (which also tries quiet checks), negative below.
  template <bool kPv>
  Score qsearch(Score alpha, Score beta, int ply, int depth = 0);

  Frame* frame(int ply) { return &stack_[ply + kStackOffset]; }
  void make_move(chess::Move m, int ply);
  void make_null_move(int ply);
  void unmake_move(chess::Move m, int ply);
  bool is_draw(int ply);
  bool is_repetition(int ply) const;
  bool upcoming_repetition(int ply) const;
  void update_pv(int ply, chess::Move m);
  int16_t& correction_entry();
  Score corrected_eval(Score raw);
  void update_correction(int diff, int depth);
  void update_quiet_history(int ply, chess::Move m, int bonus);
  void update_capture_history(chess::Move m, int bonus);
  void update_cutoff_stats(int ply, chess::Move best, int depth, const chess::Move* quiets, int quiet_count,
                           const chess::Move* captures, int capture_count);
  int quiet_history(int ply, chess::Move m) const;

  void count_node();
  bool stopped() const { return root_depth_ > 1 && engine_.stop_.load(std::memory_order_relaxed); }
  bool is_main() const { return id_ == 0; }
  PvLine line_of(const RootMove& rm) const;
  void report();
  void manage_time(chess::Move& last_best, Score& last_score, int& stable, double& changes);

  Engine& engine_;
  const int id_;
  chess::Board board_;
  std::vector<uint64_t> keys_;  // game history, then one key per ply of the current line
  std::unique_ptr<History> history_;
  chess::UndoInfo undo_[kMaxPly + 1];
  Frame stack_[kMaxPly + kStackOffset + 2];
  chess::Move pv_[kMaxPly + 1][kMaxPly + 1];
  int pv_len_[kMaxPly + 1] = {};
  std::vector<RootMove> root_moves_;
  SearchLimits limits_;
  TimeBudget budget_;
  const SearchListener* listener_ = nullptr;

  std::atomic<uint64_t> nodes_{0};
  int root_depth_ = 0;
  int completed_depth_ = 0;
  int seldepth_ = 0;
  int pv_idx_ = 0;
  int multipv_ = 1;
  int best_move_changes_ = 0;
  int nmp_min_ply_ = 0;  // null-move verification: no null moves for nmp_color_ before this ply
  chess::Color nmp_color_ = chess::kWhite;
};

// ---------------------------------------------------------------------------------------------
// Setup and iterative deepening

void SearchWorker::prepare(const chess::Board& root, const std::vector<uint64_t>& history,
                           const SearchLimits& limits, const std::vector<chess::Move>& root_moves,
                           const TimeBudget& budget, const SearchListener* listener) {
  board_ = root;
  keys_.clear();
  keys_.reserve(history.size() + kMaxPly + 2);
  keys_ = history;
  keys_.push_back(root.key());
  limits_ = limits;
  budget_ = budget;
  listener_ = listener;
  root_moves_.clear();
  for (chess::Move m : root_moves)
    root_moves_.push_back(RootMove{m, -kScoreInfinite, -kScoreInfinite, Bound::kExact, 0, {m}});
  multipv_ = std::clamp(limits.multipv, 1, int(root_moves_.size()));
  for (Frame& f : stack_) f = Frame{};
  for (int i = 0; i <= kStackOffset; ++i) stack_[i].cont = &history_->continuation[chess::kNoPiece][0];
  frame(0)->plies_from_null = int(history.size());
  nodes_.store(0, std::memory_order_relaxed);
  root_depth_ = completed_depth_ = seldepth_ = pv_idx_ = 0;
  best_move_changes_ = 0;
  nmp_min_ply_ = 0;
}

void SearchWorker::iterate() {
  const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, kMaxPly - 1) : kMaxPly - 1;
  chess::Move last_best;
  Score last_score = kScoreNone;
  int stable = 0;
  double changes = 0;

  for (root_depth_ = 1; root_depth_ <= max_depth; ++root_depth_) {
    if (root_depth_ > 1 && engine_.stop_.load()) break;
    // Helper threads skip some depths so that they do not all walk the same tree in step.
    if (!is_main() && root_depth_ > 2 && (root_depth_ + id_) % 4 == 0) continue;

    for (RootMove& rm : root_moves_) {
      rm.previous_score = rm.score;
      rm.score = -kScoreInfinite;
    }
    best_move_changes_ = 0;

    for (pv_idx_ = 0; pv_idx_ < multipv_; ++pv_idx_) {
      seldepth_ = 0;
      // Aspiration window around the last iteration's score; widened on each failure.
      const Score prev = root_moves_[pv_idx_].previous_score;
      Score delta = kAspirationDelta;
      Score alpha = -kScoreInfinite, beta = kScoreInfinite;
      if (root_depth_ >= 4 && prev != -kScoreInfinite && !is_mate_score(prev)) {
        alpha = std::max(prev - delta, -kScoreInfinite);
        beta = std::min(prev + delta, kScoreInfinite);
      }
      for (;;) {
        const Score score = search<NodeType::kRoot>(alpha, beta, root_depth_, 0, false);
        std::stable_sort(root_moves_.begin() + pv_idx_, root_moves_.end());
        if (stopped()) break;
        const bool failed = score <= alpha || score >= beta;
        if (failed && is_main() && multipv_ == 1 && engine_.elapsed_ms() > kCurrmoveAfterMs) report();
        if (score <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kScoreInfinite);
        } else if (score >= beta) {
          beta = std::min(score + delta, kScoreInfinite);
        } else {
          break;
        }
        delta += delta / 2;
        if (delta > 1000) alpha = -kScoreInfinite, beta = kScoreInfinite;
      }
      std::stable_sort(root_moves_.begin(), root_moves_.begin() + pv_idx_ + 1);
      if (stopped()) break;
    }

    if (!stopped()) completed_depth_ = root_depth_;
    if (!is_main()) continue;
    report();
    if (stopped()) break;
    manage_time(last_best, last_score, stable, changes);
  }
  if (is_main()) engine_.stop_.store(true);
}

// Decides after each completed iteration of the main thread whether to start another.
void SearchWorker::manage_time(chess::Move& last_best, Score& last_score, int& stable, double& changes) {
  const RootMove& best = root_moves_[0];
  changes = changes / 2 + best_move_changes_;
  stable = best.move == last_best ? stable + 1 : 0;
  const int drop = last_score == kScoreNone ? 0 : last_score - best.score;
  last_best = best.move;
  last_score = best.score;

  // Only a clock (not a fixed move time, not infinite analysis) allows stopping early.
  if (limits_.infinite || budget_.optimum_ms == 0 || limits_.clock.movetime_ms > 0) return;
  if (engine_.pondering_.load()) return;
  if (root_moves_.size() == 1 && root_depth_ >= 4) engine_.stop_.store(true);
  if (is_mate_score(best.score) && root_depth_ >= 2 * (kScoreMate - std::abs(best.score)) + 4)
    engine_.stop_.store(true);
  const double scale = time_scale(int(changes + 0.5), stable, drop);
  // The next iteration would take longer than what is left of the (scaled) optimum.
  if (engine_.elapsed_ms() > 0.55 * double(budget_.optimum_ms) * scale) engine_.stop_.store(true);
}

PvLine SearchWorker::line_of(const RootMove& rm) const {
  const bool updated = rm.score != -kScoreInfinite;
  PvLine line;
  line.move = rm.move;
  line.score = updated ? rm.score : rm.previous_score;
  line.bound = updated ? rm.bound : Bound::kExact;
  line.depth = updated ? root_depth_ : std::max(1, root_depth_ - 1);
  line.seldepth = rm.seldepth;
  line.pv = rm.pv;
  return line;
}

void SearchWorker::report() {
  if (!listener_ || !listener_->on_info) return;
  const uint64_t nodes = engine_.workers_.size() == 1 ? this->nodes() : [&] {
    uint64_t n = 0;
    for (const auto& w : engine_.workers_) n += w->nodes();
    return n;
  }();
  for (int i = 0; i < multipv_; ++i) {
    const RootMove& rm = root_moves_[i];
    if (rm.score == -kScoreInfinite && (root_depth_ == 1 || rm.previous_score == -kScoreInfinite)) continue;
    SearchInfo info;
    info.multipv = i + 1;
    info.line = line_of(rm);
    info.nodes = nodes;
    info.time_ms = engine_.elapsed_ms();
    info.hashfull = engine_.tt_.hashfull();
    listener_->on_info(info);
  }
}

SearchResult SearchWorker::result() const {
  SearchResult r;
  r.depth = completed_depth_;
  for (int i = 0; i < multipv_; ++i) {
    const RootMove& rm = root_moves_[i];
    if (rm.score == -kScoreInfinite && rm.previous_score == -kScoreInfinite) continue;
    r.lines.push_back(line_of(rm));
  }
  if (!root_moves_.empty()) {
    r.best_move = root_moves_[0].move;
    if (root_moves_[0].pv.size() > 1) r.ponder_move = root_moves_[0].pv[1];
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Helpers

void SearchWorker::count_node() {
  const uint64_t n = nodes_.load(std::memory_order_relaxed) + 1;
  nodes_.store(n, std::memory_order_relaxed);
  if (!is_main()) return;
  if (limits_.nodes) {
    // With one thread the budget is exact (and so the search deterministic); with more,
    // the total is summed now and then.
    if (engine_.workers_.size() == 1) {
      if (n >= limits_.nodes) engine_.stop_.store(true, std::memory_order_relaxed);
    } else if ((n & 1023) == 0) {
      uint64_t total = 0;
      for (const auto& w : engine_.workers_) total += w->nodes();
      if (total >= limits_.nodes) engine_.stop_.store(true, std::memory_order_relaxed);
    }
  }
  if ((n & 1023) == 0 && budget_.maximum_ms > 0 && !limits_.infinite &&
      !engine_.pondering_.load(std::memory_order_relaxed) && engine_.elapsed_ms() >= budget_.maximum_ms)
    engine_.stop_.store(true, std::memory_order_relaxed);
}

void SearchWorker::make_move(chess::Move m, int ply) {
  Frame* f = frame(ply);
  f->move = m;
  f->moved = board_.piece_on(m.from());
  f->cont = &history_->continuation[f->moved][m.to()];
  board_.make_move(m, undo_[ply]);
  engine_.tt_.prefetch(board_.key());
  keys_.push_back(board_.key());
  frame(ply + 1)->plies_from_null = f->plies_from_null + 1;
}

void SearchWorker::make_null_move(int ply) {
  Frame* f = frame(ply);
  f->move = chess::Move::null();
  f->moved = chess::kNoPiece;
  f->cont = &history_->continuation[chess::kNoPiece][0];
  board_.make_move(chess::Move::null(), undo_[ply]);
  engine_.tt_.prefetch(board_.key());
  keys_.push_back(board_.key());
  frame(ply + 1)->plies_from_null = 0;
  frame(ply + 1)->double_extensions = f->double_extensions;
}

void SearchWorker::unmake_move(chess::Move m, int ply) {
  keys_.pop_back();
  board_.unmake_move(m, undo_[ply]);
}

// A position repeated inside the search tree is a draw at once (the side that could avoid
// it did not); one that only repeats a game position before the root needs a third time.
bool SearchWorker::is_repetition(int ply) const {
  const int n = int(keys_.size()) - 1;
  const int limit = std::min({board_.halfmove_clock(), stack_[ply + kStackOffset].plies_from_null, n});
  bool seen_before_root = false;
  for (int i = 4; i <= limit; i += 2) {
    if (keys_[n - i] != keys_[n]) continue;
    if (i <= ply || seen_before_root) return true;
    seen_before_root = true;
  }
  return false;
}

// The side to move can repeat a position of the current line (after the root) at once.
bool SearchWorker::upcoming_repetition(int ply) const {
  const int n = int(keys_.size()) - 1;
  const int limit = std::min({board_.halfmove_clock(), stack_[ply + kStackOffset].plies_from_null, n, ply});
  for (int i = 3; i <= limit; i += 2)
    if (reaches_in_one_move(board_, keys_[n - i])) return true;
  return false;
}

bool SearchWorker::is_draw(int ply) {
  if (board_.halfmove_clock() >= 100) {
    if (!board_.in_check()) return true;
    chess::MoveList legal;  // checkmate on the hundredth half-move still counts as mate
    chess::generate_legal(board_, legal);
    return legal.size() > 0;
  }
  return is_repetition(ply);
}

int16_t& SearchWorker::correction_entry() {
  // The two sides' pawns, hashed by a multiply-xorshift into the table.
  const uint64_t white = board_.pieces(chess::kWhite, chess::kPawn);
  const uint64_t black = board_.pieces(chess::kBlack, chess::kPawn);
  uint64_t h = white * 0x9e3779b97f4a7c15ull ^ (black + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return history_->correction[board_.side_to_move()][(h * 0x94d049bb133111ebull) >> (64 - kCorrectionBits)];
}

Score SearchWorker::corrected_eval(Score raw) {
  const Score corrected = raw + correction_entry() / kCorrectionGrain;
  return std::clamp(corrected, -kScoreMateInMaxPly + 1, kScoreMateInMaxPly - 1);
}

void SearchWorker::update_correction(int diff, int depth) {
  int16_t& entry = correction_entry();
  const int weight = std::min(depth + 1, 16);
  const int target = std::clamp(diff * kCorrectionGrain, -kCorrectionMax, kCorrectionMax);
  entry =
      int16_t(std::clamp((entry * (256 - weight) + target * weight) / 256, -kCorrectionMax, kCorrectionMax));
}

void SearchWorker::update_pv(int ply, chess::Move m) {
  pv_[ply][0] = m;
  const int child_len = pv_len_[ply + 1];
  std::copy(pv_[ply + 1], pv_[ply + 1] + child_len, pv_[ply] + 1);
  pv_len_[ply] = child_len + 1;
}

int SearchWorker::quiet_history(int ply, chess::Move m) const {
  const chess::Piece p = board_.piece_on(m.from());
  const Frame* f = &stack_[ply + kStackOffset];
  return history_->butterfly[board_.side_to_move()][m.from()][m.to()] + (*f[-1].cont)[p][m.to()] +
         (*f[-2].cont)[p][m.to()];
}

void SearchWorker::update_quiet_history(int ply, chess::Move m, int bonus) {
  const chess::Piece p = board_.piece_on(m.from());
  Frame* f = frame(ply);
  update_history(history_->butterfly[board_.side_to_move()][m.from()][m.to()], bonus);
  update_history((*f[-1].cont)[p][m.to()], bonus);
  update_history((*f[-2].cont)[p][m.to()], bonus);
}

void SearchWorker::update_capture_history(chess::Move m, int bonus) {
  const chess::Piece p = board_.piece_on(m.from());
  const chess::Piece victim = board_.piece_on(m.to());
  const chess::PieceType captured = m.kind() == chess::Move::kEnPassant ? chess::kPawn
                                    : victim == chess::kNoPiece         ? chess::kNoPieceType
                                                                        : chess::type_of(victim);
  update_history(history_->captures[p][m.to()][captured], bonus);
}

void SearchWorker::update_cutoff_stats(int ply, chess::Move best, int depth, const chess::Move* quiets,
                                       int quiet_count, const chess::Move* captures, int capture_count) {
  Frame* f = frame(ply);
  const int bonus = stat_bonus(depth);
  if (is_quiet(board_, best)) {
    if (f->killers[0] != best) {
      f->killers[1] = f->killers[0];
      f->killers[0] = best;
    }
    if (f[-1].move.is_ok()) history_->counter[f[-1].moved][f[-1].move.to()] = best;
    update_quiet_history(ply, best, bonus);
    for (int i = 0; i < quiet_count; ++i) update_quiet_history(ply, quiets[i], -bonus);
  } else {
    update_capture_history(best, bonus);
  }
  for (int i = 0; i < capture_count; ++i) update_capture_history(captures[i], -bonus);
}

// ---------------------------------------------------------------------------------------------
// The alpha-beta search

template <NodeType kType>
Score SearchWorker::search(Score alpha, Score beta, int depth, int ply, bool cut_node) {
  constexpr bool kPv = kType != NodeType::kNonPv;
  constexpr bool kRoot = kType == NodeType::kRoot;
  if (depth <= 0) return qsearch<kPv>(alpha, beta, ply);

  Frame* ss = frame(ply);
  const bool in_check = board_.in_check();
  const chess::Color us = board_.side_to_move();
  if (kPv) {
    pv_len_[ply] = 0;
    seldepth_ = std::max(seldepth_, ply + 1);
  }

  // Step 1. Stop, draws, the ply limit and mate-distance pruning.
  count_node();
  if (!kRoot) {
    if (stopped()) return 0;
    if (is_draw(ply)) return kScoreDraw;
    if (ply >= kMaxPly - 1) return in_check ? kScoreDraw : evaluate(board_);
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    if (alpha >= beta) return alpha;
    // A repetition one move away is a draw in hand, whatever the TT learned by another path.
    if (alpha < kScoreDraw && upcoming_repetition(ply)) {
      alpha = kScoreDraw;
      if (alpha >= beta) return alpha;
    }
  }
  (ss + 2)->killers[0] = (ss + 2)->killers[1] = chess::Move::none();

  // Step 2. Transposition table: a deep enough bound that settles the node ends it. A search
  // that leaves a move out (a singular-extension test) is not the position's search: it neither
  // reads nor writes the table's result.
  const uint64_t key = board_.key();
  const chess::Move excluded = ss->excluded;
  TTData tte;
  const bool tt_hit = !excluded.is_ok() && engine_.tt_.probe(key, ply, tte);
  const Score tt_score = tt_hit ? tte.score : kScoreNone;
  const chess::Move tt_move = kRoot ? root_moves_[pv_idx_].move : tt_hit ? tte.move : chess::Move::none();
  if (!kPv && tt_hit && tte.depth >= depth && tt_score != kScoreNone &&
      (tte.bound == Bound::kExact || (has_lower(tte.bound) && tt_score >= beta) ||
       (has_upper(tte.bound) && tt_score <= alpha))) {
    if (tt_move.is_ok() && tt_score >= beta && is_quiet(board_, tt_move) && board_.is_legal(tt_move) &&
        ss->killers[0] != tt_move) {
      ss->killers[1] = ss->killers[0];
      ss->killers[0] = tt_move;
    }
    return tt_score;
  }

  // Step 3. Static evaluation (the table keeps it raw; the search uses it corrected by what
  // searches of the same pawn structure found), refined by the TT score when its bound allows.
  Score raw_eval = kScoreNone;
  Score eval = kScoreNone;
  bool improving = false;
  if (in_check) {
    ss->static_eval = kScoreNone;
  } else {
    if (tt_hit && tte.eval != kScoreNone) {
      raw_eval = tte.eval;
    } else {
      raw_eval = evaluate(board_);
      if (!tt_hit && !excluded.is_ok())
        engine_.tt_.store(key, ply, chess::Move::none(), kScoreNone, raw_eval, TranspositionTable::kMinDepth,
                          Bound::kNone);
    }
    ss->static_eval = corrected_eval(raw_eval);
    eval = ss->static_eval;
    if (tt_score != kScoreNone && (tt_score > eval ? has_lower(tte.bound) : has_upper(tte.bound)))
      eval = tt_score;
    const Score earlier = ss[-2].static_eval != kScoreNone ? ss[-2].static_eval : ss[-4].static_eval;
    improving = earlier == kScoreNone || ss->static_eval > earlier;
  }

  if (!kPv && !in_check && !excluded.is_ok()) {
    // Step 4. Razoring: far below alpha at low depth, only captures can save the node.
    if (depth <= 3 && eval + kRazorMargin + kRazorPerDepth * depth <= alpha) {
      const Score v = qsearch<false>(alpha, alpha + 1, ply);
      if (v <= alpha) return v;
    }

    // Step 5. Reverse futility pruning: so far above beta that a shallow search won't fall.
    if (depth <= 8 && eval - kReverseFutilityPerDepth * (depth - improving) >= beta &&
        eval < kScoreMateInMaxPly)
      return eval;

    // Step 6. Null move: if passing still fails high, a real move surely will. Not in pawn
    // endings (zugzwang); verified by a reduced search at high depth.
    if (depth >= 3 && ss[-1].move != chess::Move::null() && eval >= beta &&
        ss->static_eval >= beta - 20 * depth + 120 && has_non_pawn_material(board_, us) &&
        beta > -kScoreMateInMaxPly && (ply >= nmp_min_ply_ || us != nmp_color_)) {
      const int r = 3 + depth / 3 + std::min((eval - beta) / 200, 3);
      make_null_move(ply);
      Score v = -search<NodeType::kNonPv>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
      unmake_move(chess::Move::null(), ply);
      if (stopped()) return 0;
      if (v >= beta) {
        if (v >= kScoreMateInMaxPly) v = beta;  // a null move proves no mate
        if (nmp_min_ply_ || depth < 12) return v;
        nmp_min_ply_ = ply + 3 * (depth - r) / 4;
        nmp_color_ = us;
        const Score verified = search<NodeType::kNonPv>(beta - 1, beta, depth - r, ply, false);
        nmp_min_ply_ = 0;
        if (verified >= beta) return v;
      }
    }

    // Step 7. ProbCut: a capture that beats beta by a margin in a reduced search very likely
    // beats it in a full one.
    const Score probcut_beta = beta + 180 - 50 * improving;
    if (depth >= 5 && std::abs(beta) < kScoreMateInMaxPly &&
        !(tt_hit && tte.depth >= depth - 3 && tt_score != kScoreNone && tt_score < probcut_beta)) {
      MovePicker picker(board_, tt_move, *history_);
      for (chess::Move m = picker.next(); m.is_ok(); m = picker.next()) {
        if (!board_.is_legal_pseudo(m) || !see_ge(board_, m, probcut_beta - ss->static_eval)) continue;
        make_move(m, ply);
        Score v = -qsearch<false>(-probcut_beta, -probcut_beta + 1, ply + 1);
        if (v >= probcut_beta)
          v = -search<NodeType::kNonPv>(-probcut_beta, -probcut_beta + 1, depth - 4, ply + 1, !cut_node);
        unmake_move(m, ply);
        if (stopped()) return 0;
        if (v >= probcut_beta) {
          engine_.tt_.store(key, ply, m, v, raw_eval, depth - 3, Bound::kLower);
          return v;
        }
      }
    }
  }

  // Step 8. Internal iterative reduction: without a TT move this node was never searched;
  // a shallower search is a cheaper way to find one.
  if ((kPv || cut_node) && depth >= 4 && !tt_move.is_ok()) --depth;

  // Step 9. The move loop.
  const PieceToHistory* cont[2] = {ss[-1].cont, ss[-2].cont};
  const chess::Move counter =
      ss[-1].move.is_ok() ? history_->counter[ss[-1].moved][ss[-1].move.to()] : chess::Move::none();
  MovePicker picker(board_, tt_move, *history_, cont, ss->killers[0], ss->killers[1], counter, depth);
  const chess::CheckInfo check_info(board_);
  const Score original_alpha = alpha;
  Score best = -kScoreInfinite;
  chess::Move best_move;
  chess::Move quiets[64], captures[32];
  int quiet_count = 0, capture_count = 0, move_count = 0;
  size_t root_index = kRoot ? size_t(pv_idx_) : 0;

  for (;;) {
    chess::Move m;
    if constexpr (kRoot) {
      if (root_index >= root_moves_.size()) break;
      m = root_moves_[root_index++].move;
    } else {
      m = picker.next();
      if (!m.is_ok()) break;
      if (m == excluded || !board_.is_legal_pseudo(m)) continue;
    }
    ++move_count;
    if (kRoot && is_main() && listener_ && listener_->on_currmove && engine_.elapsed_ms() > kCurrmoveAfterMs)
      listener_->on_currmove(root_depth_, m, move_count + pv_idx_);

    const bool quiet = is_quiet(board_, m);
    const bool gives_check = check_info.gives_check(board_, m);
    const int hist = quiet ? quiet_history(ply, m) : 0;
    int new_depth = depth - 1;

    // Step 10. Pruning at shallow depth, once a move has saved us from being mated.
    if (!kRoot && best > -kScoreMateInMaxPly && has_non_pawn_material(board_, us)) {
      const int lmr_depth = std::max(new_depth - reduction(depth, move_count), 0);
      if (quiet && !gives_check) {
        // Late quiet moves one at a time (not by skipping the rest: a quiet check may follow).
        if (!in_check && move_count >= late_move_count(depth, improving)) continue;
        if (lmr_depth <= 3 && hist < -3000 * depth) continue;
        if (!in_check && lmr_depth < 8 &&
            ss->static_eval + kFutilityMargin + kFutilityPerDepth * lmr_depth <= alpha)
          continue;
        if (!see_ge(board_, m, -kQuietSeePerDepth2 * lmr_depth * lmr_depth)) continue;
      } else if (!gives_check && depth <= 6 && !see_ge(board_, m, -kCaptureSeePerDepth * depth)) {
        continue;
      }
    }

    // Step 11. Extensions, of a ply (two at most), bounded so that no line can run away.
    // Singular: when every other move falls well short of the TT move's lower bound in a
    // shallower search, the TT move is the only one and gets a ply more; when even without it
    // the search beats beta by that margin, several moves do (multi-cut), and the node fails
    // high. Otherwise a check.
    bool double_extension = false;
    if (ply < 2 * root_depth_) {
      bool singular = false;
      if (!kRoot && depth >= 8 && m == tt_move && !excluded.is_ok() && tt_hit && tte.depth >= depth - 3 &&
          has_lower(tte.bound) && std::abs(tt_score) < kScoreMateInMaxPly) {
        const Score singular_beta = tt_score - 2 * depth;
        ss->excluded = m;
        const Score v =
            search<NodeType::kNonPv>(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
        ss->excluded = chess::Move::none();
        if (stopped()) return 0;
        singular = v < singular_beta;
        if (!singular && singular_beta >= beta) return singular_beta;
        // Far below: the TT move is the only move by a wide margin, and gets two plies (a few
        // times per line at most, so that no line runs away).
        double_extension = !kPv && v < singular_beta - kDoubleExtensionMargin &&
                           ss->double_extensions < kMaxDoubleExtensions;
      }
      if (double_extension)
        new_depth += 2;
      else if (singular || gives_check)
        ++new_depth;
    }
    (ss + 1)->double_extensions = ss->double_extensions + double_extension;

    // Step 12. Make the move; late quiet moves and late captures get a reduced null-window
    // search first (LMR), the rest a null-window search (PVS), and PV candidates a full-window
    // search. Neither root moves nor checks are reduced. A root move that fails low in a
    // reduced search gets a worse history, hence a deeper reduction in the next iteration, and
    // so on: a quiet sacrifice at the root (the key of most combinations) stayed hidden for
    // many iterations (mate4.fen line 35: found at depth 22, now at depth 10). A check is the
    // move most likely to refute the static evaluation (mating nets), and reducing it undoes
    // its extension.
    make_move(m, ply);
    // A move that only gets null-window searches has no line of its own below it: without
    // this, a fail high at a PV node would copy the line a sibling left there into the PV.
    if constexpr (kPv) pv_len_[ply + 1] = 0;
    Score score = -kScoreInfinite;
    // Late captures too, by less: the move picker brings the winning ones first, so a capture
    // this late is most likely one that loses material.
    const bool late_capture = !quiet && depth >= 3 && move_count > 3 && m.kind() != chess::Move::kPromotion;
    if (!kRoot && depth >= 2 && move_count > 1 && (quiet || late_capture) && !gives_check) {
      int r = reduction(depth, move_count);
      if (kPv) --r;
      if (cut_node) ++r;
      if (quiet) {
        if (!improving) ++r;
        if (m == ss->killers[0] || m == ss->killers[1] || m == counter) --r;
        r -= hist / 8192;
      } else {
        r -= 1;
      }
      const int reduced = std::clamp(new_depth - r, 1, new_depth);
      score = -search<NodeType::kNonPv>(-(alpha + 1), -alpha, reduced, ply + 1, true);
      if (score > alpha && reduced < new_depth)
        score = -search<NodeType::kNonPv>(-(alpha + 1), -alpha, new_depth, ply + 1, !cut_node);
    } else if (!kPv || move_count > 1) {
      score = -search<NodeType::kNonPv>(-(alpha + 1), -alpha, new_depth, ply + 1, !cut_node);
    }
    if (kPv && (move_count == 1 || (score > alpha && (kRoot || score < beta))))
      score = -search<NodeType::kPv>(-beta, -alpha, new_depth, ply + 1, false);
    unmake_move(m, ply);
    if (stopped()) return 0;

    // Step 13. Root bookkeeping: a root move gets a score only when it is the best so far.
    if constexpr (kRoot) {
      RootMove& rm = *std::find_if(root_moves_.begin(), root_moves_.end(),
                                   [&](const RootMove& x) { return x.move == m; });
      if (move_count == 1 || score > alpha) {
        rm.score = score;
        rm.bound = score >= beta ? Bound::kLower : score <= alpha ? Bound::kUpper : Bound::kExact;
        rm.seldepth = seldepth_;
        rm.pv.assign(1, m);
        rm.pv.insert(rm.pv.end(), pv_[ply + 1], pv_[ply + 1] + pv_len_[ply + 1]);
        if (move_count > 1 && pv_idx_ == 0) ++best_move_changes_;
      } else {
        rm.score = -kScoreInfinite;
      }
    }

    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        if (kPv && !kRoot) update_pv(ply, m);
        if (score >= beta) break;
        alpha = score;
      }
    }
    if (m != best_move) {
      if (quiet && quiet_count < 64)
        quiets[quiet_count++] = m;
      else if (!quiet && capture_count < 32)
        captures[capture_count++] = m;
    }
  }

  // Step 14. No legal move: mate or stalemate (or, with a move left out, only that move).
  if (move_count == 0) return excluded.is_ok() ? alpha : in_check ? mated_in(ply) : kScoreDraw;
  if (best_move.is_ok())
    update_cutoff_stats(ply, best_move, depth, quiets, quiet_count, captures, capture_count);

  // Step 15. Remember the result (not for the second and later lines of a multi-PV root).
  if (!(kRoot && pv_idx_ > 0) && !excluded.is_ok()) {
    const Bound bound = best >= beta ? Bound::kLower : best > original_alpha ? Bound::kExact : Bound::kUpper;
    engine_.tt_.store(key, ply, best_move, best, raw_eval, depth, bound);
    // Step 16. Correction history, from results that say where the true value lies against the
    // static evaluation: not a fail high below it or a fail low above it, and not a capture's
    // (the evaluation was not wrong about a quiet position then).
    if (!in_check && !is_mate_score(best) && (!best_move.is_ok() || is_quiet(board_, best_move)) &&
        !(bound == Bound::kLower && best <= ss->static_eval) &&
        !(bound == Bound::kUpper && best >= ss->static_eval))
      update_correction(best - ss->static_eval, depth);
  }
  return best;
}

// Quiescence: only captures and promotions (all evasions when in check), so that the static
// evaluation is only trusted in quiet positions.
template <bool kPv>
Score SearchWorker::qsearch(Score alpha, Score beta, int ply, int depth) {
  Frame* ss = frame(ply);
  const bool in_check = board_.in_check();
  if (kPv) {
    pv_len_[ply] = 0;
    seldepth_ = std::max(seldepth_, ply + 1);
  }
  count_node();
  if (stopped()) return 0;
  if (is_draw(ply)) return kScoreDraw;
  if (ply >= kMaxPly - 1) return in_check ? kScoreDraw : evaluate(board_);

  // Every quiescence ply below the first searches the same moves: one TT depth for them all.
  const int tt_depth = depth < 0 ? -1 : 0;
  const uint64_t key = board_.key();
  TTData tte;
  const bool tt_hit = engine_.tt_.probe(key, ply, tte);
  const Score tt_score = tt_hit ? tte.score : kScoreNone;
  if (!kPv && tt_hit && tt_score != kScoreNone && tte.depth >= tt_depth &&
      (tte.bound == Bound::kExact || (has_lower(tte.bound) && tt_score >= beta) ||
       (has_upper(tte.bound) && tt_score <= alpha)))
    return tt_score;

  // Stand pat: the side to move may decline every capture.
  Score best = -kScoreInfinite;
  Score futility_base = -kScoreInfinite;
  if (in_check) {
    ss->static_eval = kScoreNone;
  } else {
    ss->static_eval = tt_hit && tte.eval != kScoreNone ? tte.eval : evaluate(board_);
    best = ss->static_eval;
    if (tt_score != kScoreNone && (tt_score > best ? has_lower(tte.bound) : has_upper(tte.bound)))
      best = tt_score;
    if (best >= beta) {
      if (!tt_hit)
        engine_.tt_.store(key, ply, chess::Move::none(), best, ss->static_eval, tt_depth, Bound::kLower);
      return best;
    }
    alpha = std::max(alpha, best);
    futility_base = ss->static_eval + kDeltaMargin;
  }

  const Score original_alpha = alpha;
  MovePicker picker(board_, tt_hit ? tte.move : chess::Move::none(), *history_, depth == 0);
  chess::Move best_move;
  int move_count = 0;
  const chess::CheckInfo check_info(board_);
  for (chess::Move m = picker.next(); m.is_ok(); m = picker.next()) {
    if (!board_.is_legal_pseudo(m)) continue;
    ++move_count;
    if (!in_check && best > -kScoreMateInMaxPly) {
      // Delta pruning: even winning the victim for free would not reach alpha.
      if (m.kind() != chess::Move::kPromotion && !check_info.gives_check(board_, m)) {
        const chess::Piece victim = board_.piece_on(m.to());
        const Score gain = m.kind() == chess::Move::kEnPassant ? kPieceValue[chess::kPawn]
                           : victim == chess::kNoPiece         ? 0
                                                               : kPieceValue[chess::type_of(victim)];
        if (futility_base + gain <= alpha) {
          best = std::max(best, futility_base + gain);
          continue;
        }
      }
      // SEE pruning: losing captures are left out.
      if (!see_ge(board_, m, 0)) continue;
    }
    make_move(m, ply);
    const Score score = -qsearch<kPv>(-beta, -alpha, ply + 1, depth - 1);
    unmake_move(m, ply);
    if (stopped()) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        if (kPv) update_pv(ply, m);
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  if (in_check && move_count == 0) return mated_in(ply);

  const Bound bound = best >= beta                   ? Bound::kLower
                      : kPv && best > original_alpha ? Bound::kExact
                                                     : Bound::kUpper;
  engine_.tt_.store(key, ply, best_move, best, ss->static_eval, tt_depth, bound);
  return best;
}

// ---------------------------------------------------------------------------------------------
// Engine

Engine::Engine(size_t hash_mb, int threads) : tt_(hash_mb) { set_threads(threads); }

Engine::~Engine() {
  stop();
  wait();
}

Status Engine::set_hash(size_t megabytes) { return tt_.resize(megabytes); }

void Engine::set_threads(int threads) {
  threads = std::max(1, threads);
  workers_.clear();
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<SearchWorker>(*this, i));
}

void Engine::new_game() {
  tt_.clear();
  for (auto& w : workers_) w->new_game();
}

int64_t Engine::elapsed_ms() const { return now_ms() - start_time_ms_.load(std::memory_order_relaxed); }

SearchResult Engine::run(const chess::Board& root, const std::vector<uint64_t>& history,
                         const SearchLimits& limits, const SearchListener& listener) {
  start_time_ms_.store(now_ms());
  tt_.new_search();

  chess::MoveList legal;
  chess::generate_legal(root, legal);
  std::vector<chess::Move> root_moves;
  for (chess::Move m : legal)
    if (limits.search_moves.empty() ||
        std::find(limits.search_moves.begin(), limits.search_moves.end(), m) != limits.search_moves.end())
      root_moves.push_back(m);
  if (root_moves.empty()) root_moves.assign(legal.begin(), legal.end());

  SearchResult result;
  if (root_moves.empty()) {
    // Mate or stalemate at the root: report the score, there is no move.
    PvLine line;
    line.score = root.in_check() ? mated_in(0) : kScoreDraw;
    result.lines.push_back(line);
    if (listener.on_info) listener.on_info(SearchInfo{1, line, 0, 0, 0});
    return result;
  }

  const TimeBudget budget =
      allocate_time(limits.clock, root.side_to_move(), root.game_ply(), move_overhead_ms_);
  for (auto& w : workers_) w->prepare(root, history, limits, root_moves, budget, &listener);
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < workers_.size(); ++i) helpers.emplace_back([this, i] { workers_[i]->iterate(); });
  workers_[0]->iterate();
  stop_.store(true);
  for (auto& t : helpers) t.join();

  result = workers_[0]->result();
  for (const auto& w : workers_) result.nodes += w->nodes();
  result.time_ms = elapsed_ms();
  return result;
}

SearchResult Engine::search(const chess::Board& root, const std::vector<uint64_t>& history,
                            const SearchLimits& limits, const SearchListener& listener) {
  stop_.store(false);
  pondering_.store(limits.ponder);
  return run(root, history, limits, listener);
}

void Engine::start(const chess::Board& root, const std::vector<uint64_t>& history, const SearchLimits& limits,
                   const SearchListener& listener, std::function<void(const SearchResult&)> on_done) {
  wait();
  stop_.store(false);
  stop_requested_.store(false);
  pondering_.store(limits.ponder);
  searching_.store(true);
  thread_ = std::thread([this, root, history, limits, listener, on_done = std::move(on_done)] {
    SearchResult result = run(root, history, limits, listener);
    // UCI: after "go infinite" or "go ponder" the best move is sent only when asked for.
    {
      std::unique_lock lock(wait_mutex_);
      wait_cv_.wait(lock, [&] { return stop_requested_.load() || (!limits.infinite && !pondering_.load()); });
    }
    if (on_done) on_done(result);
    searching_.store(false);
  });
}

void Engine::stop() {
  {
    std::lock_guard lock(wait_mutex_);
    stop_requested_.store(true);
    stop_.store(true);
  }
  wait_cv_.notify_all();
}

void Engine::ponderhit() {
  {
    std::lock_guard lock(wait_mutex_);
    start_time_ms_.store(now_ms());
    pondering_.store(false);
  }
  wait_cv_.notify_all();
}

void Engine::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace bookforge::engine
