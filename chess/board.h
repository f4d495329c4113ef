// The board: bitboards plus a mailbox, FEN in and out, make/unmake with an incrementally
// updated Polyglot key.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "chess/attacks.h"
#include "chess/castling.h"
#include "chess/types.h"

namespace bookforge::chess {

inline constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// What make_move needs to remember so that unmake_move can restore the position exactly.
struct UndoInfo {
  uint64_t key = 0;
  Bitboard checkers = 0;
  Piece captured = kNoPiece;
  Square ep_square = kNoSquare;
  uint8_t castling = 0;
  uint16_t halfmove_clock = 0;
};

class Board {
 public:
  Board();  // the standard start position

  // Parses a FEN (the last two fields may be missing). Rejects bad input with a message that
  // names the offending field; never crashes on arbitrary text.
  //
  // Castling: in standard chess (chess960 false) KQkq name the rooks on a1/h1/a8/h8 with the
  // king on e1/e8. With chess960, or when the field holds file letters, it is read as X-FEN or
  // Shredder-FEN: K/Q name the outermost rook on the h/a side of the king, a letter (A-H for
  // White, a-h for Black) the rook on that file. Rights whose king or rook is missing are
  // dropped, in both modes (many FENs in the wild keep stale rights).
  static Result<Board> from_fen(std::string_view fen, bool chess960 = false);
  // Standard FEN; for a Chess960 board X-FEN (KQkq for the outermost rooks, else file letters).
  std::string fen() const;

  // A Chess960 game: the caller said so, or the castling rights need rooks or a king off their
  // standard squares. Decides how castling is written (FEN, UCI), never the rules.
  bool chess960() const { return chess960_; }

  Piece piece_on(Square s) const { return board_[s]; }
  Color side_to_move() const { return side_; }
  Bitboard pieces() const { return by_color_[kWhite] | by_color_[kBlack]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Square king_square(Color c) const { return lsb(pieces(c, kKing)); }

  uint8_t castling_rights() const { return castling_; }
  // The castling move of right `r` (king takes rook). Meaningful only while the side has it.
  Move castling_move(CastlingRight r) const {
    return Move(castling_king_[castling_color(r)], castling_rook_[castling_index(r)], Move::kCastling);
  }
  // The squares that must be empty to castle with right `r` (all but the king and that rook
  // on the way of either to its destination).
  Bitboard castling_path(CastlingRight r) const { return castling_path_[castling_index(r)]; }
  // The square a pawn skipped over on the last move (as FEN writes it), or kNoSquare.
  Square ep_square() const { return ep_square_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }
  // Plies since the start of the game as implied by the fullmove number and side to move.
  int game_ply() const { return 2 * (fullmove_number_ - 1) + side_; }

  // The Polyglot key, kept up to date by make/unmake.
  uint64_t key() const { return key_; }

  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }

  // Pieces of either colour that attack `s`, with `occupied` as the blockers.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }

  // True if `m` is a legal move in this position (any 16-bit value is safe to pass).
  bool is_legal(Move m) const;
  // For moves from the generator: pseudo-legal moves that also leave the king safe.
  bool is_legal_pseudo(Move m) const {
    // Inline fast path for the common case (SAN replay, the search): not in check, a normal
    // move of a piece other than the king, and no enemy slider on the line through the king
    // and the piece, so nothing can pin it.
    if (!checkers_ && m.kind() == Move::kNormal) {
      const Square ksq = king_square(side_);
      const Bitboard sliders = by_type_[kBishop] | by_type_[kRook] | by_type_[kQueen];
      if (m.from() != ksq && !(line_bb(ksq, m.from()) & sliders & by_color_[~side_])) return true;
    }
    return king_safe_after(m);
  }
  bool gives_check(Move m) const;
  bool is_capture(Move m) const;

  // Plays a legal move (or Move::null()). unmake_move must get the same move and undo info.
  void make_move(Move m, UndoInfo& undo);
  void unmake_move(Move m, const UndoInfo& undo);

  // Debug invariant check: bitboards, mailbox, key and checkers agree.
  bool is_ok() const;

 private:
  struct EmptyTag {};
  explicit Board(EmptyTag);  // no pieces; from_fen fills it in

  // is_legal_pseudo without the fast path.
  bool king_safe_after(Move m) const;
  // The king-safety part of is_legal_pseudo for a castling move (the king's path unattacked).
  bool castling_path_safe(Move m) const;
  // Full pseudo-legality of an arbitrary move value (is_legal = this + is_legal_pseudo).
  bool is_pseudo_legal(Move m) const;

  // In the header so that make/unmake inline them: the library is built position-independent,
  // and GCC does not inline an out-of-line member that could be interposed.
  void put_piece(Piece p, Square s) {
    board_[s] = p;
    by_color_[color_of(p)] |= square_bb(s);
    by_type_[type_of(p)] |= square_bb(s);
  }
  void remove_piece(Square s) {
    const Piece p = board_[s];
    by_color_[color_of(p)] ^= square_bb(s);
    by_type_[type_of(p)] ^= square_bb(s);
    board_[s] = kNoPiece;
  }
  void move_piece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard both = square_bb(from) | square_bb(to);
    by_color_[color_of(p)] ^= both;
    by_type_[type_of(p)] ^= both;
    board_[from] = kNoPiece;
    board_[to] = p;
  }
  // make_move for null moves, castling, en passant and promotions, from the point where the
  // updates every move makes (undo, turn, en-passant key, clocks) are done; `key` is the key so far.
  void make_special_move(Move m, UndoInfo& undo, uint64_t key);
  // Drops the castling rights that a move from `from` to `to` ends, in the key as well.
  inline void update_castling(Square from, Square to, uint64_t& key);
  // update_castling's rare part: drops the rights of the kings and rooks on `touched`, and
  // returns the key's change.
  [[gnu::noinline]] uint64_t drop_castling_rights(Bitboard touched);
  // Grants colour c the right to castle with its rook on `rook` (the king stands on its back
  // rank) and fixes that right's geometry. For from_fen.
  void add_castling_right(Color c, Square rook);
  // The castling field's letter for right `r` (chess/fen.cpp).
  char castling_letter(CastlingRight r) const;
  // Whether a piece of colour `c` attacks `s` with `occupied` as the blockers.
  bool attacked_by(Color c, Square s, Bitboard occupied) const {
    return ((pawn_attacks(~c, s) & by_type_[kPawn]) | (knight_attacks(s) & by_type_[kKnight]) |
            (king_attacks(s) & by_type_[kKing]) |
            (bishop_attacks(s, occupied) & (by_type_[kBishop] | by_type_[kQueen])) |
            (rook_attacks(s, occupied) & (by_type_[kRook] | by_type_[kQueen]))) &
           by_color_[c];
  }
  void update_checkers();
  // update_checkers after a move that left `piece` on `piece_sq` and emptied `vacated`: direct
  // checks by that piece, discovered ones only through the vacated squares.
  inline void update_checkers_after(Square piece_sq, Piece piece, Bitboard vacated);

  Piece board_[64];
  Bitboard by_color_[2] = {0, 0};
  Bitboard by_type_[6] = {0, 0, 0, 0, 0, 0};
  uint64_t key_ = 0;
  Bitboard checkers_ = 0;
  Color side_ = kWhite;
  uint8_t castling_ = kNoCastling;
  Square ep_square_ = kNoSquare;
  uint16_t halfmove_clock_ = 0;
  uint16_t fullmove_number_ = 1;
  // Castling geometry, fixed by from_fen and the same for every position of a game. Indexed by
  // castling_index: each right's rook, the squares its path needs empty, and the squares the
  // king crosses before its destination (which must not be attacked). `castling_squares_`
  // holds every king and rook a right depends on: a move touching none of them, which is
  // nearly every move, keeps all rights without looking further.
  Square castling_king_[2] = {kE1, kE8};
  Square castling_rook_[4] = {kH1, kA1, kH8, kA8};
  Bitboard castling_path_[4] = {0, 0, 0, 0};
  Bitboard castling_king_path_[4] = {0, 0, 0, 0};
  Bitboard castling_squares_ = 0;
  bool chess960_ = false;
};

// The key computed from nothing but the position, as the Polyglot format defines it: from_fen
// sets key() from it, and is_ok() and the tests compare the incrementally updated key() with
// it. The en-passant file counts only when a pawn of the side to move stands beside the pawn
// that just double-stepped (pins do not matter).
uint64_t polyglot_key_from_scratch(const Board& board);

}  // namespace bookforge::chess
