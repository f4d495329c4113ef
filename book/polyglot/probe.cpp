#include "book/polyglot/probe.h"

#include "chess/san.h"

namespace bookforge::book {

std::vector<ProbedMove> probe_book(const PolyglotBook& book, const chess::Board& board) {
  std::vector<ProbedMove> moves;
  for (const PolyglotEntry& e : book.find(board.key()))
    moves.push_back({e, chess::polyglot_to_move(board, e.move)});
  return moves;
}

std::optional<ProbedMove> pick_move(const std::vector<ProbedMove>& moves, uint64_t random, bool best) {
  uint64_t total = 0;
  const ProbedMove* heaviest = nullptr;
  for (const ProbedMove& m : moves) {
    if (m.move == chess::Move::none() || m.entry.weight == 0) continue;
    total += m.entry.weight;
    if (!heaviest || m.entry.weight > heaviest->entry.weight) heaviest = &m;
  }
  if (!heaviest) return std::nullopt;
  if (best) return *heaviest;
  uint64_t target = random % total;
  for (const ProbedMove& m : moves) {
    if (m.move == chess::Move::none() || m.entry.weight == 0) continue;
    if (target < m.entry.weight) return m;
    target -= m.entry.weight;
  }
  return *heaviest;  // not reached: the targets cover [0, total)
}

std::string polyglot_move_text(uint16_t move) {
  auto square = [](int s) { return std::string{char('a' + (s & 7)), char('1' + (s >> 3))}; };
  std::string text = square((move >> 6) & 63) + square(move & 63);
  static constexpr char kPromotion[] = " nbrq  ";
  int promo = (move >> 12) & 7;
  if (promo >= 1 && promo <= 4) text += kPromotion[promo];
  return text;
}

}  // namespace bookforge::book
