#include "chess/board.h"

#include <cassert>

#include "chess/attacks.h"
#include "chess/castling.h"
#include "chess/zobrist.h"

namespace bookforge::chess {
namespace {

constexpr int pawn_push(Color c) { return c == kWhite ? 8 : -8; }

// The en-passant file enters the key only when a pawn of the side to move (`us`) could
// capture: those pawns are exactly the ones attacking the ep square.
inline bool ep_hashed(const Board& b, Color us, Square ep) {
  return (pawn_attacks(~us, ep) & b.pieces(us, kPawn)) != 0;
}

}  // namespace

Board::Board() {
  // Parsed once (it cannot fail), then copied: PGN replay starts a board for every game.
  static const Board start = from_fen(kStartFen).value();
  *this = start;
}

Board::Board(EmptyTag) {
  for (Piece& p : board_) p = kNoPiece;
}

Bitboard Board::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (pawn_attacks(kWhite, s) & pieces(kBlack, kPawn)) | (knight_attacks(s) & by_type_[kKnight]) |
         (king_attacks(s) & by_type_[kKing]) |
         (bishop_attacks(s, occupied) & (by_type_[kBishop] | by_type_[kQueen])) |
         (rook_attacks(s, occupied) & (by_type_[kRook] | by_type_[kQueen]));
}

// Kings never give check in a legal position, so they are left out.
void Board::update_checkers() {
  Color us = side_, them = ~us;
  Square ksq = king_square(us);
  Bitboard occ = pieces();
  checkers_ = ((pawn_attacks(us, ksq) & by_type_[kPawn]) | (knight_attacks(ksq) & by_type_[kKnight]) |
               (bishop_attacks(ksq, occ) & (by_type_[kBishop] | by_type_[kQueen])) |
               (rook_attacks(ksq, occ) & (by_type_[kRook] | by_type_[kQueen]))) &
              by_color_[them];
}

inline void Board::update_checkers_after(Square piece_sq, Piece piece, Bitboard vacated) {
  const Color us = side_, them = ~us;  // `us` is to move now; `them` just moved
  const Square ksq = king_square(us);
  const Bitboard occ = pieces();
  // One test for every kind: the piece's empty-board attacks reach the king and nothing stands
  // between (always so for pawns and knights). A king never gives check: its row could only
  // match with the kings side by side, which no legal move brings about.
  Bitboard checkers = 0;
  if ((pseudo_attacks(piece, piece_sq) & square_bb(ksq)) && !(between_bb(piece_sq, ksq) & occ))
    checkers = square_bb(piece_sq);
  // A vacated square on a line with the king and one of their sliders may have opened that
  // slider onto it.
  const Bitboard sliders = by_color_[them] & (by_type_[kBishop] | by_type_[kRook] | by_type_[kQueen]);
  for (Bitboard v = vacated; v;) {
    if (line_bb(ksq, pop_lsb(v)) & sliders) {
      checkers |= ((rook_attacks(ksq, occ) & (by_type_[kRook] | by_type_[kQueen])) |
                   (bishop_attacks(ksq, occ) & (by_type_[kBishop] | by_type_[kQueen]))) &
                  by_color_[them];
      break;
    }
  }
  checkers_ = checkers;
}

// A king or rook leaving its square, or a rook being captured on it, ends the rights that
// depend on that square. The test below is all that most moves cost; the rest is out of line
// so that make_move stays small.
inline void Board::update_castling(Square from, Square to, uint64_t& key) {
  if (!castling_) return;  // nothing left to lose, as in most middlegames and endgames
  const Bitboard touched = square_bb(from) | square_bb(to);
  if (castling_squares_ & touched) key ^= drop_castling_rights(touched);
}

uint64_t Board::drop_castling_rights(Bitboard touched) {
  uint8_t castling = castling_;
  for (int i = 0; i < 4; ++i)
    if (touched & (square_bb(castling_king_[i >> 1]) | square_bb(castling_rook_[i])))
      castling &= uint8_t(~(1 << i));
  const uint64_t key_change = zobrist::castling_key(castling ^ castling_);
  castling_ = castling;
  return key_change;
}

void Board::add_castling_right(Color c, Square rook) {
  const Square king = king_square(c);
  const CastlingRight right = castling_right(c, rook > king);
  const int i = castling_index(right);
  const Move m(king, rook, Move::kCastling);
  const Square king_to = castling_king_to(m), rook_to = castling_rook_to(m);
  castling_ |= right;
  castling_king_[c] = king;
  castling_rook_[i] = rook;
  castling_path_[i] =
      (between_bb(king, king_to) | between_bb(rook, rook_to) | square_bb(king_to) | square_bb(rook_to)) &
      ~(square_bb(king) | square_bb(rook));
  castling_king_path_[i] = between_bb(king, king_to);
  castling_squares_ |= square_bb(king) | square_bb(rook);
}

// Split in two: the quiet moves and plain captures that make up nearly every ply of a game
// or a search run through straight-line code here; everything else goes to
// make_special_move, so its cases do not weigh on the common path.
void Board::make_move(Move m, UndoInfo& undo) {
  const Color us = side_, them = ~us;
  undo.key = key_;
  undo.checkers = checkers_;
  undo.ep_square = ep_square_;
  undo.castling = castling_;
  undo.halfmove_clock = halfmove_clock_;

  uint64_t key = key_ ^ zobrist::turn_key();
  if (ep_square_ != kNoSquare) {
    if (ep_hashed(*this, us, ep_square_)) key ^= zobrist::en_passant_key(file_of(ep_square_));
    ep_square_ = kNoSquare;
  }
  ++halfmove_clock_;
  fullmove_number_ += us;  // after Black's move

  if (m.kind() != Move::kNormal || m == Move::null()) {
    make_special_move(m, undo, key);
    assert(is_ok());
    return;
  }

  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from], captured = board_[to];
  const PieceType pt = type_of(pc);
  const Bitboard from_to = square_bb(from) | square_bb(to);
  board_[from] = kNoPiece;
  board_[to] = pc;
  by_color_[us] ^= from_to;
  by_type_[pt] ^= from_to;
  // piece_key(kNoPiece, to) is zero: no branch for the capture's key.
  key ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(pc, to) ^ zobrist::piece_key(captured, to);
  undo.captured = captured;
  if (captured != kNoPiece) {
    by_color_[them] ^= square_bb(to);
    by_type_[type_of(captured)] ^= square_bb(to);
    halfmove_clock_ = 0;
  }
  if (pt == kPawn) {
    halfmove_clock_ = 0;
    if ((from ^ to) == 16) {
      ep_square_ = Square((from + to) / 2);
      if (ep_hashed(*this, them, ep_square_)) key ^= zobrist::en_passant_key(file_of(ep_square_));
    }
  }
  update_castling(from, to, key);
  side_ = them;
  key_ = key;
  update_checkers_after(to, pc, square_bb(from));
  assert(is_ok());
}

void Board::make_special_move(Move m, UndoInfo& undo, uint64_t key) {
  const Color us = side_, them = ~us;
  undo.captured = kNoPiece;
  if (m == Move::null()) {
    side_ = them;
    key_ = key;
    update_checkers();
    return;
  }

  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  // For update_checkers_after: where the moving (or promoted, or castling rook) piece ends up,
  // and what the move left empty.
  Square piece_sq = to;
  Piece piece = pc;
  Bitboard vacated = square_bb(from);

  if (m.kind() == Move::kCastling) {
    const Square king_to = castling_king_to(m), rook_to = castling_rook_to(m);
    const Piece rook = board_[to];
    remove_piece(from);
    remove_piece(to);
    put_piece(pc, king_to);
    put_piece(rook, rook_to);
    key ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(pc, king_to) ^ zobrist::piece_key(rook, to) ^
           zobrist::piece_key(rook, rook_to);
    piece_sq = rook_to;
    piece = rook;
    vacated |= square_bb(to);
  } else {
    // En passant takes the pawn behind the target square; a promotion what stands on it.
    const Square cap_sq = m.kind() == Move::kEnPassant ? Square(to - pawn_push(us)) : to;
    const Piece captured = board_[cap_sq];
    if (captured != kNoPiece) {
      if (cap_sq != to) vacated |= square_bb(cap_sq);
      remove_piece(cap_sq);
      key ^= zobrist::piece_key(captured, cap_sq);
      undo.captured = captured;
    }
    halfmove_clock_ = 0;  // a pawn moved
    move_piece(from, to);
    key ^= zobrist::piece_key(pc, from) ^ zobrist::piece_key(pc, to);
    if (m.kind() == Move::kPromotion) {
      const Piece promoted = make_piece(us, m.promotion());
      remove_piece(to);
      put_piece(promoted, to);
      key ^= zobrist::piece_key(pc, to) ^ zobrist::piece_key(promoted, to);
      piece = promoted;
    }
  }

  update_castling(from, to, key);
  side_ = them;
  key_ = key;
  update_checkers_after(piece_sq, piece, vacated);
}

void Board::unmake_move(Move m, const UndoInfo& undo) {
  side_ = ~side_;
  const Color us = side_;
  fullmove_number_ -= us;
  key_ = undo.key;
  checkers_ = undo.checkers;
  ep_square_ = undo.ep_square;
  castling_ = undo.castling;
  halfmove_clock_ = undo.halfmove_clock;
  if (m == Move::null()) return;

  const Square from = m.from(), to = m.to();
  if (m.kind() == Move::kCastling) {
    const Square king_to = castling_king_to(m), rook_to = castling_rook_to(m);
    const Piece king = board_[king_to], rook = board_[rook_to];
    remove_piece(king_to);
    remove_piece(rook_to);
    put_piece(king, from);
    put_piece(rook, to);
    return;
  }
  if (m.kind() == Move::kPromotion) {
    remove_piece(to);
    put_piece(make_piece(us, kPawn), to);
  }
  move_piece(to, from);
  if (undo.captured != kNoPiece) {
    const Square cap_sq = m.kind() == Move::kEnPassant ? Square(to - pawn_push(us)) : to;
    put_piece(undo.captured, cap_sq);
  }
  assert(is_ok());
}

bool Board::is_capture(Move m) const {
  return m.kind() == Move::kEnPassant || (m.kind() != Move::kCastling && board_[m.to()] != kNoPiece);
}

// The squares the king crosses are tested with the castling rook still in place, the one it
// lands on with the rook already on its destination (the rules of python-chess): a rook that
// shields the king's destination from a slider behind it (queen a1, rook b1, king c1 castling
// a-side) stops shielding it when it moves away. Keeping the king on the board changes
// nothing: every square the king crosses lies on its rank, and a slider on that rank seeing
// through the king's square would be giving check.
bool Board::castling_path_safe(Move m) const {
  if (checkers_) return false;  // castling out of check is illegal; the king's own square is safe
  const Color them = ~side_;
  const Bitboard occ = pieces();
  for (Bitboard path = castling_king_path_[castling_index(castling_right(side_, castles_kingside(m)))]; path;)
    if (attacked_by(them, pop_lsb(path), occ)) return false;
  const Bitboard occ_after = (occ ^ square_bb(m.to())) | square_bb(castling_rook_to(m));
  return !attacked_by(them, castling_king_to(m), occ_after);
}

// The king-safety half of legality. Non-king moves: after the move, no enemy slider may see
// the king through the new occupancy, and any non-slider checker must have been captured.
bool Board::king_safe_after(Move m) const {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Square ksq = king_square(us);
  const Bitboard occ = pieces();

  if (m.kind() == Move::kCastling) return castling_path_safe(m);
  if (from == ksq) return !(attackers_to(to, occ ^ square_bb(from)) & by_color_[them]);

  Bitboard removed = square_bb(to);  // the piece captured, if any
  if (m.kind() == Move::kEnPassant) {
    removed = square_bb(Square(to - pawn_push(us)));
  } else if (!checkers_) {
    // Not in check: only a pin can make the move illegal. The piece is pinned when an enemy
    // slider of the line's kind stands on the line with nothing but this piece before the king.
    const Bitboard line = line_bb(ksq, from);
    if (!line || (line & square_bb(to))) return true;  // no line, or it stays on it
    const bool straight = file_of(ksq) == file_of(from) || rank_of(ksq) == rank_of(from);
    Bitboard snipers = line & by_color_[them] & by_type_[kQueen];
    snipers |= line & by_color_[them] & by_type_[straight ? kRook : kBishop];
    while (snipers)
      if ((between_bb(ksq, pop_lsb(snipers)) & occ) == square_bb(from)) return false;
    return true;
  }

  const Bitboard new_occ = (occ ^ square_bb(from) ^ removed) | square_bb(to);
  const Bitboard enemies = by_color_[them] & ~removed;
  if (checkers_ & enemies & (by_type_[kPawn] | by_type_[kKnight])) return false;
  return !((rook_attacks(ksq, new_occ) & enemies & (by_type_[kRook] | by_type_[kQueen])) |
           (bishop_attacks(ksq, new_occ) & enemies & (by_type_[kBishop] | by_type_[kQueen])));
}

bool Board::is_pseudo_legal(Move m) const {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  if (from == to) return false;  // also rejects none() and null()
  const Piece pc = board_[from];
  if (pc == kNoPiece || color_of(pc) != us) return false;
  // Only promotions use the promotion field; generated moves leave it zero otherwise.
  if (m.kind() != Move::kPromotion && m.promotion() != kKnight) return false;

  const Bitboard occ = pieces();
  const Bitboard to_bb = square_bb(to);
  const PieceType pt = type_of(pc);

  switch (m.kind()) {
    case Move::kCastling: {
      const CastlingRight right = castling_right(us, to > from);
      if (pt != kKing || !(castling_ & right) || checkers_) return false;
      return castling_move(right) == m && !(castling_path(right) & occ);
    }
    case Move::kEnPassant:
      return pt == kPawn && to == ep_square_ && (pawn_attacks(us, from) & to_bb) &&
             board_[to - pawn_push(us)] == make_piece(them, kPawn);
    case Move::kPromotion:
    case Move::kNormal: {
      if (by_color_[us] & to_bb) return false;
      if (pt != kPawn) return m.kind() == Move::kNormal && (piece_attacks(pt, from, occ) & to_bb);
      const bool last_rank = (relative_rank_bb(us, 7) & to_bb) != 0;
      if (last_rank != (m.kind() == Move::kPromotion)) return false;
      if (pawn_attacks(us, from) & to_bb) return (by_color_[them] & to_bb) != 0;
      const int push = pawn_push(us);
      if (to == from + push) return !(occ & to_bb);
      return to == from + 2 * push && (relative_rank_bb(us, 1) & square_bb(from)) &&
             !(occ & (to_bb | square_bb(Square(from + push))));
    }
  }
  return false;
}

bool Board::is_legal(Move m) const { return is_pseudo_legal(m) && is_legal_pseudo(m); }

// Direct checks from the moved (or promoted, or castling rook's) piece on its new square,
// plus discovered checks by our other sliders through the squares the move vacated.
bool Board::gives_check(Move m) const {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Square ksq = king_square(them);
  const Bitboard occ = pieces();

  Bitboard new_occ;
  Square piece_to = to;
  PieceType piece_type = type_of(board_[from]);
  if (m.kind() == Move::kCastling) {
    piece_to = castling_rook_to(m);
    piece_type = kRook;
    new_occ = (occ ^ square_bb(from) ^ square_bb(to)) | square_bb(castling_king_to(m)) | square_bb(piece_to);
  } else {
    new_occ = (occ ^ square_bb(from)) | square_bb(to);
    if (m.kind() == Move::kEnPassant) new_occ ^= square_bb(Square(to - pawn_push(us)));
    if (m.kind() == Move::kPromotion) piece_type = m.promotion();
  }

  const Bitboard king_bb = square_bb(ksq);
  if (piece_type == kPawn ? (pawn_attacks(us, piece_to) & king_bb)
                          : (piece_type != kKing && (piece_attacks(piece_type, piece_to, new_occ) & king_bb)))
    return true;

  // Our sliders that stay where they are (the moving piece and a castling rook excluded).
  const Bitboard moved = square_bb(from) | (m.kind() == Move::kCastling ? square_bb(to) : 0);
  const Bitboard ours = by_color_[us] & ~moved;
  return ((rook_attacks(ksq, new_occ) & ours & (by_type_[kRook] | by_type_[kQueen])) |
          (bishop_attacks(ksq, new_occ) & ours & (by_type_[kBishop] | by_type_[kQueen]))) != 0;
}

bool Board::is_ok() const {
  Bitboard all = 0;
  for (int pt = kPawn; pt <= kKing; ++pt) {
    if (all & by_type_[pt]) return false;
    all |= by_type_[pt];
  }
  if (all != pieces() || (by_color_[kWhite] & by_color_[kBlack])) return false;
  for (int s = 0; s < 64; ++s) {
    Piece p = board_[s];
    Bitboard bb = square_bb(Square(s));
    if (p == kNoPiece) {
      if (all & bb) return false;
    } else if (type_of(p) > kKing || !(by_color_[color_of(p)] & by_type_[type_of(p)] & bb)) {
      return false;
    }
  }
  if (popcount(pieces(kWhite, kKing)) != 1 || popcount(pieces(kBlack, kKing)) != 1) return false;
  if (pieces(kPawn) & (rank_bb(0) | rank_bb(7))) return false;
  for (Color c : {kWhite, kBlack})
    for (bool kingside : {true, false}) {
      const CastlingRight right = castling_right(c, kingside);
      const Move m = castling_move(right);
      if ((castling_ & right) && (board_[m.from()] != make_piece(c, kKing) ||
                                  board_[m.to()] != make_piece(c, kRook) || castles_kingside(m) != kingside))
        return false;
    }
  if (ep_square_ != kNoSquare) {
    const int push = pawn_push(~side_);
    if (rank_of(ep_square_) != (side_ == kWhite ? 5 : 2) ||
        board_[ep_square_ + push] != make_piece(~side_, kPawn))
      return false;
  }
  if (attackers_to(king_square(~side_)) & by_color_[side_]) return false;
  if (checkers_ != (attackers_to(king_square(side_)) & by_color_[~side_])) return false;
  return key_ == polyglot_key_from_scratch(*this);
}

uint64_t polyglot_key_from_scratch(const Board& board) {
  uint64_t key = 0;
  for (int s = 0; s < 64; ++s) {
    const Piece p = board.piece_on(Square(s));
    if (p != kNoPiece) key ^= zobrist::piece_key(p, Square(s));
  }
  key ^= zobrist::castling_key(board.castling_rights());
  const Square ep = board.ep_square();
  if (ep != kNoSquare && ep_hashed(board, board.side_to_move(), ep))
    key ^= zobrist::en_passant_key(file_of(ep));
  if (board.side_to_move() == kWhite) key ^= zobrist::turn_key();
  return key;
}

}  // namespace bookforge::chess
