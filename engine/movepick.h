// Hands out the moves of a node one at a time, best first, generating them in stages so that
// a cutoff by an early move saves generating (and sorting) the rest:
//
//   main search:  TT move, good captures (SEE >= 0, MVV-LVA), killer 1, killer 2, counter move,
//                 quiet moves by history, bad captures and underpromotions
//   in check:     TT move, evasions (captures by MVV-LVA first, then quiets by history)
//   quiescence:   TT move (if a capture), captures and promotions by MVV-LVA, then (at the
//                 first quiescence ply only) quiet moves that give check
//
// Moves are pseudo-legal; the caller tests legality (Board::is_legal_pseudo) before playing.
// The TT move, killers and counter move are validated (Board::is_legal) before they are
// returned and never returned twice.
#pragma once

#include "chess/board.h"
#include "chess/movegen.h"
#include "engine/history.h"

namespace bookforge::engine {

class MovePicker {
 public:
  // Main search. `cont` are the continuation histories of the moves 1 and 2 plies back.
  MovePicker(const chess::Board& board, chess::Move tt_move, const History& history,
             const PieceToHistory* const cont[2], chess::Move killer1, chess::Move killer2,
             chess::Move counter, int depth);
  // Quiescence search (captures and promotions, or all evasions when in check), with quiet
  // checks after the captures if `with_checks`.
  MovePicker(const chess::Board& board, chess::Move tt_move, const History& history,
             bool with_checks = false);

  // The next move, or Move::none() when there are no more.
  chess::Move next();

 private:
  // One line per stage sequence (main search, check evasions, quiescence), in the order they run.
  // clang-format off
  enum class Stage : uint8_t {
    kMainTT, kGenCaptures, kGoodCaptures, kKiller1, kKiller2, kCounter, kGenQuiets, kQuiets, kBadCaptures,
    kEvasionTT, kGenEvasions, kEvasions,
    kQsTT, kQsGenCaptures, kQsCaptures, kQsGenChecks, kQsChecks,
    kDone
  };
  // clang-format on
  // Trivially constructible (a raw move, not Move), so the array below costs nothing to create.
  struct Scored {
    uint16_t move;
    int score;
  };

  void score_captures();
  void score_quiets();
  void score_evasions();
  void sort_current_range(int limit);
  chess::Move pick_best();
  bool is_special(chess::Move m) const;
  bool usable_refutation(chess::Move m) const;

  const chess::Board& board_;
  const History& history_;
  const PieceToHistory* const* cont_ = nullptr;
  chess::Move tt_move_, killer1_, killer2_, counter_;
  Stage stage_;
  bool with_checks_ = false;
  int sort_limit_ = 0;  // quiets scoring below this are tried in generation order
  Scored moves_[256];
  int cur_ = 0;
  int end_ = 0;
  int bad_end_ = 0;  // bad captures are parked at moves_[0, bad_end_)
};

// Capture score for ordering: most valuable victim first, then least valuable attacker.
int mvv_lva(const chess::Board& board, chess::Move m);

}  // namespace bookforge::engine
