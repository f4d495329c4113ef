// Move generation. generate_legal builds exactly the legal moves from a check mask (the
// squares that capture or block a single checker) and pin lines (a pinned piece stays on the
// line through its king and pinner); only en passant, whose capture empties two squares of one
// rank at once, is tested by replaying the occupancy.
#include "chess/movegen.h"

#include <algorithm>

#include "chess/attacks.h"
#include "chess/castling.h"

namespace bookforge::chess {

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

namespace {

template <Color Us>
constexpr int kUp = Us == kWhite ? 8 : -8;

template <int Delta>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (Delta == 8) return b << 8;
  if constexpr (Delta == -8) return b >> 8;
  if constexpr (Delta == 7) return (b & ~kFileABB) << 7;   // up-left for White
  if constexpr (Delta == 9) return (b & ~kFileHBB) << 9;   // up-right for White
  if constexpr (Delta == -9) return (b & ~kFileABB) >> 9;  // down-left for Black
  if constexpr (Delta == -7) return (b & ~kFileHBB) >> 7;  // down-right for Black
  return 0;
}

inline void push_moves(MoveList& list, Square from, Bitboard targets) {
  while (targets) list.push(Move(from, pop_lsb(targets)));
}

// Moves by delta-shifted pawn sets: `to` came from `to - Delta`.
template <int Delta>
inline void push_pawn_moves(MoveList& list, Bitboard targets) {
  while (targets) {
    Square to = pop_lsb(targets);
    list.push(Move(Square(to - Delta), to));
  }
}

inline void push_promotion(MoveList& list, Square from, Square to) {
  for (PieceType pt : {kQueen, kRook, kBishop, kKnight}) list.push(Move(from, to, Move::kPromotion, pt));
}

template <int Delta>
inline void push_promotions(MoveList& list, Bitboard targets) {
  while (targets) {
    Square to = pop_lsb(targets);
    push_promotion(list, Square(to - Delta), to);
  }
}

inline void push_promotions_from(MoveList& list, Square from, Bitboard targets) {
  while (targets) push_promotion(list, from, pop_lsb(targets));
}

template <Color Them>
inline bool attacked_by(const Board& b, Square s, Bitboard occupied) {
  return (pawn_attacks(~Them, s) & b.pieces(Them, kPawn)) || (knight_attacks(s) & b.pieces(Them, kKnight)) ||
         (king_attacks(s) & b.pieces(Them, kKing)) ||
         (bishop_attacks(s, occupied) & (b.pieces(Them, kBishop) | b.pieces(Them, kQueen))) ||
         (rook_attacks(s, occupied) & (b.pieces(Them, kRook) | b.pieces(Them, kQueen)));
}

// Our pieces that stand alone between our king and an enemy slider aiming at it.
template <Color Us>
inline Bitboard pinned_pieces(const Board& b, Square ksq) {
  constexpr Color Them = ~Us;
  const Bitboard them = b.pieces(Them);
  Bitboard snipers = (rook_attacks(ksq, them) & (b.pieces(Them, kRook) | b.pieces(Them, kQueen))) |
                     (bishop_attacks(ksq, them) & (b.pieces(Them, kBishop) | b.pieces(Them, kQueen)));
  Bitboard pinned = 0;
  const Bitboard occ = b.pieces();
  while (snipers) {
    Bitboard blockers = between_bb(ksq, pop_lsb(snipers)) & occ;
    if (!more_than_one(blockers)) pinned |= blockers;
  }
  return pinned & b.pieces(Us);
}

// Castling with the rights and an empty path; `Legal` also checks the squares the king
// crosses (the caller guarantees the king is not in check).
template <Color Us, bool Legal>
void generate_castling(const Board& b, MoveList& list) {
  for (bool kingside : {true, false}) {
    const CastlingRight right = castling_right(Us, kingside);
    if (!(b.castling_rights() & right) || (b.castling_path(right) & b.pieces())) continue;
    const Move m = b.castling_move(right);
    if (!Legal || b.is_legal_pseudo(m)) list.push(m);
  }
}

// ---------------------------------------------------------------------------------------------
// Legal generation

template <Color Us>
void generate_legal_pawns(const Board& b, MoveList& list, Bitboard target, Bitboard pinned, Square ksq) {
  constexpr Color Them = ~Us;
  constexpr int Up = kUp<Us>;
  constexpr int UpLeft = Us == kWhite ? 7 : -9;
  constexpr int UpRight = Us == kWhite ? 9 : -7;
  constexpr Bitboard kRank7 = relative_rank_bb(Us, 6);
  constexpr Bitboard kRank3 = relative_rank_bb(Us, 2);

  const Bitboard empty = ~b.pieces();
  const Bitboard enemies = b.pieces(Them);
  const Bitboard pawns = b.pieces(Us, kPawn);
  const Bitboard free_pawns = pawns & ~pinned;

  // Unpinned pawns, all at once.
  {
    const Bitboard movers = free_pawns & ~kRank7;
    const Bitboard single = shift<Up>(movers) & empty;
    const Bitboard dbl = shift<Up>(single & kRank3) & empty & target;
    push_pawn_moves<Up>(list, single & target);
    push_pawn_moves<2 * Up>(list, dbl);
    push_pawn_moves<UpLeft>(list, shift<UpLeft>(movers) & enemies & target);
    push_pawn_moves<UpRight>(list, shift<UpRight>(movers) & enemies & target);
  }
  if (const Bitboard promoters = free_pawns & kRank7) {
    push_promotions<Up>(list, shift<Up>(promoters) & empty & target);
    push_promotions<UpLeft>(list, shift<UpLeft>(promoters) & enemies & target);
    push_promotions<UpRight>(list, shift<UpRight>(promoters) & enemies & target);
  }

  // Pinned pawns, one by one, restricted to their pin line.
  for (Bitboard p = pawns & pinned; p;) {
    const Square from = pop_lsb(p);
    const Bitboard line = line_bb(ksq, from) & target;
    const Bitboard to = shift<Up>(square_bb(from)) & empty;
    Bitboard moves = to;
    if (to & kRank3) moves |= shift<Up>(to) & empty;
    moves |= pawn_attacks(Us, from) & enemies;
    moves &= line;
    if (square_bb(from) & kRank7)
      push_promotions_from(list, from, moves);
    else
      push_moves(list, from, moves);
  }

  // En passant: replay the occupancy and look for any attack on the king.
  const Square ep = b.ep_square();
  if (ep == kNoSquare) return;
  const Square cap_sq = Square(ep - Up);
  for (Bitboard c = pawn_attacks(Them, ep) & pawns; c;) {
    const Square from = pop_lsb(c);
    const Bitboard occ = (b.pieces() ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(ep);
    const Bitboard attackers =
        (rook_attacks(ksq, occ) & (b.pieces(Them, kRook) | b.pieces(Them, kQueen))) |
        (bishop_attacks(ksq, occ) & (b.pieces(Them, kBishop) | b.pieces(Them, kQueen))) |
        (knight_attacks(ksq) & b.pieces(Them, kKnight)) |
        (pawn_attacks(Us, ksq) & b.pieces(Them, kPawn) & ~square_bb(cap_sq));
    if (!attackers) list.push(Move(from, ep, Move::kEnPassant));
  }
}

template <Color Us>
void generate_legal_impl(const Board& b, MoveList& list) {
  constexpr Color Them = ~Us;
  const Bitboard ours = b.pieces(Us);
  const Bitboard occ = b.pieces();
  const Square ksq = b.king_square(Us);
  const Bitboard checkers = b.checkers();

  // King: every destination checked against the occupancy without the king, so that it
  // cannot step back along the line of a slider that checks it.
  const Bitboard occ_without_king = occ ^ square_bb(ksq);
  for (Bitboard t = king_attacks(ksq) & ~ours; t;) {
    const Square to = pop_lsb(t);
    if (!attacked_by<Them>(b, to, occ_without_king)) list.push(Move(ksq, to));
  }
  if (more_than_one(checkers)) return;

  const Bitboard target = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~ours;
  const Bitboard pinned = pinned_pieces<Us>(b, ksq);

  for (Bitboard p = b.pieces(Us, kKnight) & ~pinned; p;) {
    const Square from = pop_lsb(p);
    push_moves(list, from, knight_attacks(from) & target);
  }
  for (Bitboard p = b.pieces(Us, kBishop) | b.pieces(Us, kQueen); p;) {
    const Square from = pop_lsb(p);
    Bitboard t = bishop_attacks(from, occ) & target;
    if (pinned & square_bb(from)) t &= line_bb(ksq, from);
    push_moves(list, from, t);
  }
  for (Bitboard p = b.pieces(Us, kRook) | b.pieces(Us, kQueen); p;) {
    const Square from = pop_lsb(p);
    Bitboard t = rook_attacks(from, occ) & target;
    if (pinned & square_bb(from)) t &= line_bb(ksq, from);
    push_moves(list, from, t);
  }
  generate_legal_pawns<Us>(b, list, target, pinned, ksq);

  if (!checkers && b.castling_rights()) generate_castling<Us, true>(b, list);
}

// ---------------------------------------------------------------------------------------------
// Pseudo-legal generation (for the search: legality is checked later, move by move)

template <Color Us>
void generate_pseudo_pawns(const Board& b, MoveList& list, GenKind kind, Bitboard target) {
  constexpr Color Them = ~Us;
  constexpr int Up = kUp<Us>;
  constexpr int UpLeft = Us == kWhite ? 7 : -9;
  constexpr int UpRight = Us == kWhite ? 9 : -7;
  constexpr Bitboard kRank7 = relative_rank_bb(Us, 6);
  constexpr Bitboard kRank3 = relative_rank_bb(Us, 2);

  const Bitboard empty = ~b.pieces();
  const Bitboard enemies = b.pieces(Them) & target;
  const Bitboard pawns = b.pieces(Us, kPawn);
  const Bitboard movers = pawns & ~kRank7, promoters = pawns & kRank7;
  const bool captures = kind != GenKind::kQuiets;
  const bool quiets = kind != GenKind::kCaptures;
  // Promotions are pushes onto empty squares even when only captures are wanted.
  const Bitboard promotion_pushes = empty & (kind == GenKind::kCaptures ? ~Bitboard(0) : target);

  if (quiets) {
    const Bitboard single = shift<Up>(movers) & empty;
    push_pawn_moves<Up>(list, single & target);
    push_pawn_moves<2 * Up>(list, shift<Up>(single & kRank3) & empty & target);
  }
  if (captures) {
    push_pawn_moves<UpLeft>(list, shift<UpLeft>(movers) & enemies);
    push_pawn_moves<UpRight>(list, shift<UpRight>(movers) & enemies);
    // Quiescence wants every promotion; quiet generation gets none of them.
    push_promotions<Up>(list, shift<Up>(promoters) & promotion_pushes);
    push_promotions<UpLeft>(list, shift<UpLeft>(promoters) & enemies);
    push_promotions<UpRight>(list, shift<UpRight>(promoters) & enemies);

    const Square ep = b.ep_square();
    // When evading, en passant helps only if it takes the checking pawn or blocks.
    if (ep != kNoSquare && (target & (square_bb(ep) | square_bb(Square(ep - Up))))) {
      for (Bitboard c = pawn_attacks(Them, ep) & pawns; c;) list.push(Move(pop_lsb(c), ep, Move::kEnPassant));
    }
  }
}

template <Color Us>
void generate_pseudo_impl(const Board& b, GenKind kind, MoveList& list) {
  const Bitboard ours = b.pieces(Us), theirs = b.pieces(~Us);
  const Bitboard occ = b.pieces();
  const Square ksq = b.king_square(Us);
  const Bitboard checkers = b.checkers();

  Bitboard target = ~ours;
  Bitboard king_target = ~ours;
  if (kind == GenKind::kCaptures) target = king_target = theirs;
  if (kind == GenKind::kQuiets) target = king_target = ~occ;
  if (kind == GenKind::kEvasions && checkers) {
    push_moves(list, ksq, king_attacks(ksq) & king_target);
    if (more_than_one(checkers)) return;
    target = between_bb(ksq, lsb(checkers)) | checkers;
  } else {
    push_moves(list, ksq, king_attacks(ksq) & king_target);
  }

  for (Bitboard p = b.pieces(Us, kKnight); p;) {
    const Square from = pop_lsb(p);
    push_moves(list, from, knight_attacks(from) & target);
  }
  for (Bitboard p = b.pieces(Us, kBishop) | b.pieces(Us, kQueen); p;) {
    const Square from = pop_lsb(p);
    push_moves(list, from, bishop_attacks(from, occ) & target);
  }
  for (Bitboard p = b.pieces(Us, kRook) | b.pieces(Us, kQueen); p;) {
    const Square from = pop_lsb(p);
    push_moves(list, from, rook_attacks(from, occ) & target);
  }
  generate_pseudo_pawns<Us>(b, list, kind == GenKind::kEvasions ? GenKind::kAll : kind, target);

  if ((kind == GenKind::kAll || kind == GenKind::kQuiets) && !checkers) generate_castling<Us, false>(b, list);
}

}  // namespace

void generate_legal(const Board& board, MoveList& list) {
  if (board.side_to_move() == kWhite)
    generate_legal_impl<kWhite>(board, list);
  else
    generate_legal_impl<kBlack>(board, list);
}

void generate_pseudo(const Board& board, GenKind kind, MoveList& list) {
  if (board.side_to_move() == kWhite)
    generate_pseudo_impl<kWhite>(board, kind, list);
  else
    generate_pseudo_impl<kBlack>(board, kind, list);
}

}  // namespace bookforge::chess
