#include "engine/movepick.h"

#include <utility>

#include "chess/check_info.h"
#include "engine/eval.h"
#include "engine/see.h"

namespace bookforge::engine {
namespace {

chess::PieceType captured_type(const chess::Board& board, chess::Move m) {
  if (m.kind() == chess::Move::kEnPassant) return chess::kPawn;
  const chess::Piece victim = board.piece_on(m.to());
  return victim == chess::kNoPiece || m.kind() == chess::Move::kCastling ? chess::kNoPieceType
                                                                         : chess::type_of(victim);
}

bool is_underpromotion(chess::Move m) {
  return m.kind() == chess::Move::kPromotion && m.promotion() != chess::kQueen;
}

}  // namespace

int mvv_lva(const chess::Board& board, chess::Move m) {
  int score = kPieceValue[captured_type(board, m)] * 16 - chess::type_of(board.piece_on(m.from()));
  if (m.kind() == chess::Move::kPromotion)
    score += (kPieceValue[m.promotion()] - kPieceValue[chess::kPawn]) * 16;
  return score;
}

MovePicker::MovePicker(const chess::Board& board, chess::Move tt_move, const History& history,
                       const PieceToHistory* const cont[2], chess::Move killer1, chess::Move killer2,
                       chess::Move counter, int depth)
    : board_(board), history_(history), cont_(cont), killer1_(killer1), killer2_(killer2), counter_(counter) {
  // Deep nodes are worth a full sort; shallow ones try only the promising quiets in order.
  sort_limit_ = -3000 * depth;
  stage_ = board.in_check() ? Stage::kEvasionTT : Stage::kMainTT;
  if (tt_move.is_ok() && board.is_legal(tt_move)) tt_move_ = tt_move;
}

MovePicker::MovePicker(const chess::Board& board, chess::Move tt_move, const History& history,
                       bool with_checks)
    : board_(board), history_(history), with_checks_(with_checks) {
  if (board.in_check()) {
    stage_ = Stage::kEvasionTT;
    if (tt_move.is_ok() && board.is_legal(tt_move)) tt_move_ = tt_move;
  } else {
    stage_ = Stage::kQsTT;
    if (tt_move.is_ok() && !is_underpromotion(tt_move) &&
        (board.is_capture(tt_move) || tt_move.kind() == chess::Move::kPromotion) && board.is_legal(tt_move))
      tt_move_ = tt_move;
  }
}

void MovePicker::score_captures() {
  for (int i = cur_; i < end_; ++i) {
    const chess::Move m(moves_[i].move);
    const chess::Piece mover = board_.piece_on(m.from());
    moves_[i].score = mvv_lva(board_, m) + history_.captures[mover][m.to()][captured_type(board_, m)] / 8;
  }
}

void MovePicker::score_quiets() {
  const chess::Color us = board_.side_to_move();
  for (int i = cur_; i < end_; ++i) {
    const chess::Move m(moves_[i].move);
    const chess::Piece mover = board_.piece_on(m.from());
    int score = history_.butterfly[us][m.from()][m.to()];
    if (cont_) score += (*cont_[0])[mover][m.to()] + (*cont_[1])[mover][m.to()];
    moves_[i].score = score;
  }
}

void MovePicker::score_evasions() {
  const chess::Color us = board_.side_to_move();
  for (int i = cur_; i < end_; ++i) {
    const chess::Move m(moves_[i].move);
    if (board_.is_capture(m) || m.kind() == chess::Move::kPromotion) {
      moves_[i].score = (1 << 24) + mvv_lva(board_, m);
    } else {
      const chess::Piece mover = board_.piece_on(m.from());
      int score = history_.butterfly[us][m.from()][m.to()];
      if (cont_) score += (*cont_[0])[mover][m.to()];
      moves_[i].score = score;
    }
  }
}

// Stable partial insertion sort, best first: the moves scoring at least `limit` are sorted to
// the front, the others follow in generation order. Ties keep generation order, so the order
// (and with it the node count of a search) depends only on the position and the histories.
void MovePicker::sort_current_range(int limit) {
  int sorted_end = cur_;  // moves_[cur_, sorted_end) are the sorted good ones
  for (int i = cur_; i < end_; ++i) {
    if (moves_[i].score < limit) continue;
    const Scored x = moves_[i];
    moves_[i] = moves_[sorted_end];
    int j = sorted_end++;
    for (; j > cur_ && moves_[j - 1].score < x.score; --j) moves_[j] = moves_[j - 1];
    moves_[j] = x;
  }
}

chess::Move MovePicker::pick_best() {
  int best = cur_;
  for (int i = cur_ + 1; i < end_; ++i)
    if (moves_[i].score > moves_[best].score) best = i;
  std::swap(moves_[cur_], moves_[best]);
  return chess::Move(moves_[cur_++].move);
}

bool MovePicker::is_special(chess::Move m) const {
  return m == tt_move_ || m == killer1_ || m == killer2_ || m == counter_;
}

bool MovePicker::usable_refutation(chess::Move m) const {
  return m.is_ok() && m != tt_move_ && m.kind() != chess::Move::kPromotion && !board_.is_capture(m) &&
         board_.is_legal(m);
}

chess::Move MovePicker::next() {
  for (;;) {
    switch (stage_) {
      case Stage::kMainTT:
      case Stage::kEvasionTT:
      case Stage::kQsTT:
        stage_ = Stage(uint8_t(stage_) + 1);
        if (tt_move_.is_ok()) return tt_move_;
        break;

      case Stage::kGenCaptures:
      case Stage::kQsGenCaptures: {
        chess::MoveList list;
        chess::generate_pseudo(board_, chess::GenKind::kCaptures, list);
        cur_ = bad_end_ = 0;
        end_ = 0;
        for (chess::Move m : list) moves_[end_++].move = m.raw();
        score_captures();
        stage_ = Stage(uint8_t(stage_) + 1);
        break;
      }

      case Stage::kGoodCaptures:
        while (cur_ < end_) {
          const chess::Move m = pick_best();
          if (m == tt_move_) continue;
          if (is_underpromotion(m) || !see_ge(board_, m, 0)) {
            moves_[bad_end_++] = moves_[cur_ - 1];
            continue;
          }
          return m;
        }
        stage_ = Stage::kKiller1;
        break;

      case Stage::kKiller1:
        stage_ = Stage::kKiller2;
        if (usable_refutation(killer1_)) return killer1_;
        break;

      case Stage::kKiller2:
        stage_ = Stage::kCounter;
        if (killer2_ != killer1_ && usable_refutation(killer2_)) return killer2_;
        break;

      case Stage::kCounter:
        stage_ = Stage::kGenQuiets;
        if (counter_ != killer1_ && counter_ != killer2_ && usable_refutation(counter_)) return counter_;
        break;

      case Stage::kGenQuiets: {
        cur_ = end_;
        chess::MoveList list;
        chess::generate_pseudo(board_, chess::GenKind::kQuiets, list);
        for (chess::Move m : list) moves_[end_++].move = m.raw();
        score_quiets();
        sort_current_range(sort_limit_);
        stage_ = Stage::kQuiets;
        break;
      }

      case Stage::kQuiets:
        while (cur_ < end_) {
          const chess::Move m(moves_[cur_++].move);
          if (!is_special(m)) return m;
        }
        cur_ = 0;
        stage_ = Stage::kBadCaptures;
        break;

      case Stage::kBadCaptures:
        if (cur_ < bad_end_) return chess::Move(moves_[cur_++].move);
        stage_ = Stage::kDone;
        break;

      case Stage::kGenEvasions: {
        chess::MoveList list;
        chess::generate_pseudo(board_, chess::GenKind::kEvasions, list);
        cur_ = end_ = 0;
        for (chess::Move m : list) moves_[end_++].move = m.raw();
        score_evasions();
        stage_ = Stage::kEvasions;
        break;
      }

      case Stage::kEvasions:
        while (cur_ < end_) {
          const chess::Move m = pick_best();
          if (m != tt_move_) return m;
        }
        stage_ = Stage::kDone;
        break;

      case Stage::kQsCaptures:
        while (cur_ < end_) {
          const chess::Move m = pick_best();
          if (m != tt_move_ && !is_underpromotion(m)) return m;
        }
        stage_ = with_checks_ ? Stage::kQsGenChecks : Stage::kDone;
        break;

      case Stage::kQsGenChecks: {
        chess::MoveList list;
        chess::generate_pseudo(board_, chess::GenKind::kQuiets, list);
        const chess::CheckInfo check_info(board_);
        cur_ = end_ = 0;
        for (chess::Move m : list)
          if (m != tt_move_ && check_info.gives_check(board_, m)) moves_[end_++].move = m.raw();
        stage_ = Stage::kQsChecks;
        break;
      }

      case Stage::kQsChecks:
        if (cur_ < end_) return chess::Move(moves_[cur_++].move);
        stage_ = Stage::kDone;
        break;

      case Stage::kDone:
        return chess::Move::none();
    }
  }
}

}  // namespace bookforge::engine
