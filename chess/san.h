// Move notation: SAN (parse, tolerant; print, with disambiguation and +/#) and UCI text. The
// Polyglot move encoding is chess/polyglot_move.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/board.h"

namespace bookforge::chess {

enum class SanError : uint8_t {
  kNone = 0,
  kSyntax,            // not a move at all
  kMissingPiece,      // the side to move has no piece of that kind at all
  kNoSuchPiece,       // no piece of that kind can reach the target square
  kEmptyOrigin,       // long algebraic: no piece of the side to move on the origin square
  kOwnPiece,          // the target square holds a piece of the side to move
  kNothingToCapture,  // a pawn capture onto an empty square that is not the en-passant square
  kPawnBlocked,       // a pawn push onto an occupied square
  kIllegal,           // a piece can get there, but every such move leaves the king in check
  kAmbiguous,         // more than one legal move fits
  kBadPromotion,      // promotion missing, misplaced or to an impossible piece
  kBadCastling        // castling not possible here
};
std::string_view san_error_message(SanError e);

struct SanResult {
  Move move;
  SanError error = SanError::kNone;
  bool ok() const { return error == SanError::kNone; }
};

// Resolves a SAN token in this position. Tolerant: O-O / 0-0, suffixes + # ! ? !? ?! !! ??,
// promotion with or without '=', "Pe4", long algebraic "e2e4" / "e2-e4" / "Ng1-f3", "exd6e.p.".
// Works back from the target square rather than generating all legal moves. The null move
// ("--" or "Z0") gives Move::null() (an error when in check): callers that cannot use it, such
// as book building, must treat it as the end of the usable moves.
SanResult san_to_move(const Board& board, std::string_view san);

// SAN with minimal disambiguation and a + or # suffix. `m` must be legal.
std::string move_to_san(const Board& board, Move m);

// UCI text ("e2e4", "e7e8q"); castling as the king's destination ("e1g1"), or with chess960
// (UCI_Chess960) as king takes rook ("e1h1").
std::string move_to_uci(Move m, bool chess960 = false);
// Accepts "king takes rook" for castling, and on a standard-chess board also the king's
// destination. Move::none() if illegal.
Move uci_to_move(const Board& board, std::string_view uci);

}  // namespace bookforge::chess
