// SAN parsing and printing. Parsing reads the token from its right end (promotion, target
// square) and then whatever is left in front (piece letter, disambiguation, capture mark), and
// resolves the move backwards from the target: the pieces of that kind attacking the target,
// narrowed by the hints, checked for legality one by one.
#include "chess/san.h"

#include <array>

#include "chess/attacks.h"
#include "chess/castling.h"
#include "chess/movegen.h"

namespace bookforge::chess {
namespace {

constexpr int pawn_push(Color c) { return c == kWhite ? 8 : -8; }

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

// SAN piece letters by character code (kNoPieceType for anything else): a table, since this
// runs for every token.
constexpr std::array<PieceType, 256> make_piece_letters() {
  std::array<PieceType, 256> t{};
  for (auto& pt : t) pt = kNoPieceType;
  t['P'] = kPawn;
  t['N'] = kKnight;
  t['B'] = kBishop;
  t['R'] = kRook;
  t['Q'] = kQueen;
  t['K'] = kKing;
  return t;
}
constexpr std::array<PieceType, 256> kPieceLetters = make_piece_letters();

PieceType piece_from_letter(char c) { return kPieceLetters[uint8_t(c)]; }

// Promotion letters may be lower case ("e8q", as UCI writes them).
PieceType promotion_from_letter(char c) {
  return piece_from_letter(c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c);
}

bool is_mark(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }

std::string_view strip_marks(std::string_view s) {
  while (!s.empty() && is_mark(s.back())) s.remove_suffix(1);
  return s;
}

// Removes check/mate marks, annotation glyphs and an en-passant remark ("e.p.", "ep"). The
// last character decides which checks are needed: this runs once per move of every game.
std::string_view strip_suffixes(std::string_view s) {
  s = strip_marks(s);
  const size_t n = s.size();
  if (n >= 5 && s[n - 1] == '.' && s[n - 2] == 'p' && s[n - 3] == '.' && s[n - 4] == 'e')
    return strip_marks(s.substr(0, n - 4));
  if (n >= 3 && s[n - 1] == 'p' && s[n - 2] == 'e' && is_rank(s[n - 3]))
    return strip_marks(s.substr(0, n - 2));
  return s;
}

// "O-O", "0-0", "O-O-O", "0-0-0" (any mix of O, o and 0): 1 king side, 2 queen side, 0 other.
int castling_side(std::string_view s) {
  if (s.size() != 3 && s.size() != 5) return 0;
  for (size_t i = 0; i < s.size(); ++i) {
    bool letter = s[i] == 'O' || s[i] == 'o' || s[i] == '0';
    if (i % 2 == 0 ? !letter : s[i] != '-') return 0;
  }
  return s.size() == 3 ? 1 : 2;
}

SanResult failure(SanError e) { return {Move::none(), e}; }

SanResult resolve_castling(const Board& board, bool kingside) {
  const CastlingRight right = castling_right(board.side_to_move(), kingside);
  const Move m = board.castling_move(right);
  if (!(board.castling_rights() & right) || !board.is_legal(m)) return failure(SanError::kBadCastling);
  return {m, SanError::kNone};
}

// The parts of a SAN token that are not castling.
struct SanParts {
  PieceType piece = kNoPieceType;  // none: no letter given (a pawn, or a long-algebraic move)
  PieceType promotion = kNoPieceType;
  int from_file = -1, from_rank = -1;
  bool capture = false;
  Square to = kNoSquare;
  Bitboard hints = ~Bitboard(0);  // the squares the origin file and rank allow
};

SanError parse_parts(std::string_view s, SanParts& p) {
  // From the right: promotion piece, with or without '='.
  if (s.size() >= 3 && !is_rank(s.back())) {
    PieceType promo = promotion_from_letter(s.back());
    char before = s[s.size() - 2];
    if (promo != kNoPieceType && (before == '=' || is_rank(before))) {
      if (promo == kPawn || promo == kKing) return SanError::kBadPromotion;
      p.promotion = promo;
      s.remove_suffix(before == '=' ? 2 : 1);
    }
  }
  // The target square.
  if (s.size() < 2 || !is_file(s[s.size() - 2]) || !is_rank(s.back())) return SanError::kSyntax;
  p.to = make_square(s[s.size() - 2] - 'a', s.back() - '1');
  s.remove_suffix(2);
  // From the left: piece letter, origin file, origin rank, capture or long-algebraic dash.
  size_t i = 0;
  if (i < s.size() && piece_from_letter(s[i]) != kNoPieceType) p.piece = piece_from_letter(s[i++]);
  if (i < s.size() && is_file(s[i])) {
    p.from_file = s[i++] - 'a';
    p.hints &= file_bb(p.from_file);
  }
  if (i < s.size() && is_rank(s[i])) {
    p.from_rank = s[i++] - '1';
    p.hints &= rank_bb(p.from_rank);
  }
  if (i < s.size() && (s[i] == 'x' || s[i] == ':')) {
    p.capture = true;
    ++i;
  } else if (i < s.size() && s[i] == '-' && p.from_file >= 0 && p.from_rank >= 0) {
    ++i;
  }
  return i == s.size() ? SanError::kNone : SanError::kSyntax;
}

// A long-algebraic king move two squares sideways from its home square ("e1g1", "Ke1c1"),
// or onto its own rook ("e1h1"), is castling. In Chess960 only the king taking its own rook
// is ("Kb1a1", "g1h1"): a king may step onto g1 or c1 without castling.
bool long_castling(const Board& board, const SanParts& p, bool& kingside) {
  const Color us = board.side_to_move();
  if (board.chess960()) {
    if (p.from_file < 0 || p.from_rank < 0) return false;
    const Square from = make_square(p.from_file, p.from_rank);
    if (board.piece_on(from) != make_piece(us, kKing) || board.piece_on(p.to) != make_piece(us, kRook) ||
        rank_of(p.to) != rank_of(from))
      return false;
    kingside = p.to > from;
    return true;
  }
  const Square home = castling_king_from(us);
  if (p.from_file < 0 || p.from_rank < 0 || make_square(p.from_file, p.from_rank) != home) return false;
  if (board.piece_on(home) != make_piece(us, kKing) || rank_of(p.to) != rank_of(home)) return false;
  const int file = file_of(p.to);
  if (file == 6 || file == 7)
    kingside = true;
  else if (file == 2 || file == 0)
    kingside = false;
  else
    return false;
  return file == 6 || file == 2 || board.piece_on(p.to) == make_piece(us, kRook);
}

// The squares our pawns could have come from to reach `to`: diagonally for a capture, from
// straight behind (one or two squares) for a push.
Bitboard pawn_origins(const Board& board, const SanParts& p, bool capture) {
  const Color us = board.side_to_move();
  const Bitboard pawns = board.pieces(us, kPawn);
  if (capture) return pawn_attacks(~us, p.to) & pawns;
  const int push = pawn_push(us);
  const Square one_back = Square(p.to - push);
  if (rank_of(p.to) == (us == kWhite ? 0 : 7)) return 0;
  if (pawns & square_bb(one_back)) return square_bb(one_back);
  if (board.piece_on(one_back) != kNoPiece || rank_of(p.to) != (us == kWhite ? 3 : 4)) return 0;
  return pawns & square_bb(Square(p.to - 2 * push));
}

// Those of `pieces` (all of type pt) that attack `to`. A side rarely has more than two pieces
// of a kind, so sliders are tested one by one against the target instead of looking up the
// attack set of the target square.
inline Bitboard pieces_reaching(const Board& board, PieceType pt, Square to, Bitboard pieces) {
  if (pt == kKnight) return knight_attacks(to) & pieces;
  if (pt == kKing) return king_attacks(to) & pieces;
  Bitboard reaching = 0;
  for (Bitboard b = pieces; b;) {
    const Square s = pop_lsb(b);
    if (slider_reaches(pt, s, to, board.pieces())) reaching |= square_bb(s);
  }
  return reaching;
}

// The forms that make up nearly every move of real games, resolved without the general
// parse: a pawn push ("e4"), a piece move with one candidate ("Nf3", "Nxf3"), a pawn capture
// ("exd5"). Each finds the move the general path would find; anything else, including every
// error, is left to the general path (false).
inline bool resolve_common(const Board& board, std::string_view s, Move& move) {
  const size_t n = s.size();
  if (n < 2 || n > 4 || !is_file(s[n - 2]) || !is_rank(s[n - 1])) return false;
  const Color us = board.side_to_move();
  const Square to = make_square(s[n - 2] - 'a', s[n - 1] - '1');
  const Piece on_target = board.piece_on(to);
  if (on_target != kNoPiece && color_of(on_target) == us) return false;
  const int to_rank = rank_of(to);
  const bool pawn_rank = to_rank != 0 && to_rank != 7;  // neither a promotion nor impossible
  Square from;
  if (n == 2) {
    if (on_target != kNoPiece || !pawn_rank) return false;
    const Bitboard pawns = board.pieces(us, kPawn);
    from = Square(to - pawn_push(us));
    if (!(pawns & square_bb(from))) {
      if (board.piece_on(from) != kNoPiece || to_rank != (us == kWhite ? 3 : 4)) return false;
      from = Square(from - pawn_push(us));
      if (!(pawns & square_bb(from))) return false;
    }
  } else if (n == 4 && is_file(s[0])) {
    if (s[1] != 'x' || on_target == kNoPiece || !pawn_rank) return false;
    const Bitboard origins = pawn_attacks(~us, to) & board.pieces(us, kPawn) & file_bb(s[0] - 'a');
    if (!origins) return false;
    from = lsb(origins);
  } else {
    const PieceType pt = piece_from_letter(s[0]);
    if (pt == kNoPieceType || pt == kPawn || (n == 4 && s[1] != 'x')) return false;
    const Bitboard origins = pieces_reaching(board, pt, to, board.pieces(us, pt));
    if (!origins || (origins & (origins - 1))) return false;
    from = lsb(origins);
  }
  move = Move(from, to);
  return board.is_legal_pseudo(move);
}

}  // namespace

std::string_view san_error_message(SanError e) {
  switch (e) {
    case SanError::kNone:
      return "no error";
    case SanError::kSyntax:
      return "not a move in SAN or long algebraic notation";
    case SanError::kMissingPiece:
      return "the side to move has no piece of that kind";
    case SanError::kNoSuchPiece:
      return "no piece of that kind can reach the target square";
    case SanError::kEmptyOrigin:
      return "no piece of the side to move stands on the origin square";
    case SanError::kOwnPiece:
      return "the target square holds a piece of the side to move";
    case SanError::kNothingToCapture:
      return "nothing to capture on the target square (and it is not the en-passant square)";
    case SanError::kPawnBlocked:
      return "a pawn cannot move straight onto an occupied square";
    case SanError::kIllegal:
      return "illegal move: it would leave the king in check";
    case SanError::kAmbiguous:
      return "ambiguous move: more than one piece fits";
    case SanError::kBadPromotion:
      return "bad promotion: missing, misplaced or to an impossible piece";
    case SanError::kBadCastling:
      return "castling is not possible here";
  }
  return "unknown error";
}

namespace {

// Every token resolve_common leaves: castling, promotions, disambiguated and long-algebraic
// moves, null moves and all errors. Out of line, so the common path stays light.
[[gnu::noinline]] SanResult resolve_general(const Board& board, std::string_view san) {
  if (san.empty()) return failure(SanError::kSyntax);
  // Most tokens end in the target square's rank ("e4", "Nxf3", "Rad1"): no suffix to strip,
  // not castling (which ends in 'O' or '0'), not a null move, no promotion.
  std::string_view s = san;
  if (!is_rank(san.back())) {
    s = strip_suffixes(san);
    if (s.empty()) return failure(SanError::kSyntax);
    if (s[0] == 'O' || s[0] == '0' || s[0] == 'o')
      if (const int side = castling_side(s)) return resolve_castling(board, side == 1);
    if ((s[0] == '-' || s[0] == 'Z') && (s == "--" || s == "Z0")) {
      if (board.in_check()) return failure(SanError::kIllegal);
      return {Move::null(), SanError::kNone};
    }
  }

  SanParts p;
  if (SanError e = parse_parts(s, p); e != SanError::kNone) return failure(e);

  const Color us = board.side_to_move();
  // Long algebraic without a piece letter ("g1f3", "e1g1"): the piece is whatever stands there.
  if (p.piece == kNoPieceType && p.from_file >= 0 && p.from_rank >= 0) {
    const Piece on_from = board.piece_on(make_square(p.from_file, p.from_rank));
    if (on_from == kNoPiece || color_of(on_from) != us) return failure(SanError::kEmptyOrigin);
    p.piece = type_of(on_from);
  }
  if (p.piece == kNoPieceType) p.piece = kPawn;
  if (p.piece == kKing) {
    bool kingside;
    if (long_castling(board, p, kingside)) return resolve_castling(board, kingside);
  }

  const Piece on_target = board.piece_on(p.to);
  if (on_target != kNoPiece && color_of(on_target) == us) return failure(SanError::kOwnPiece);

  Bitboard candidates;
  Move::Kind kind = Move::kNormal;
  if (p.piece == kPawn) {
    const bool last_rank = rank_of(p.to) == (us == kWhite ? 7 : 0);
    if (last_rank != (p.promotion != kNoPieceType)) return failure(SanError::kBadPromotion);
    if (last_rank) kind = Move::kPromotion;
    const bool capture = p.capture || (p.from_file >= 0 && p.from_file != file_of(p.to));
    if (capture && on_target == kNoPiece) {
      if (p.to != board.ep_square()) return failure(SanError::kNothingToCapture);
      kind = Move::kEnPassant;
    }
    if (!capture && on_target != kNoPiece) return failure(SanError::kPawnBlocked);
    candidates = pawn_origins(board, p, capture) & p.hints;
  } else {
    if (p.promotion != kNoPieceType) return failure(SanError::kBadPromotion);
    candidates = pieces_reaching(board, p.piece, p.to, board.pieces(us, p.piece) & p.hints);
  }
  if (!candidates)
    return failure(board.pieces(us, p.piece) ? SanError::kNoSuchPiece : SanError::kMissingPiece);

  const PieceType promo = kind == Move::kPromotion ? p.promotion : kKnight;
  Move found = Move::none();
  do {
    const Move m(pop_lsb(candidates), p.to, kind, promo);
    if (!board.is_legal_pseudo(m)) continue;
    if (found != Move::none()) return failure(SanError::kAmbiguous);
    found = m;
  } while (candidates);
  if (found == Move::none()) return failure(SanError::kIllegal);
  return {found, SanError::kNone};
}

}  // namespace

SanResult san_to_move(const Board& board, std::string_view san) {
  if (Move m; resolve_common(board, san, m)) return {m, SanError::kNone};
  return resolve_general(board, san);
}

std::string move_to_san(const Board& board, Move m) {
  if (m == Move::null()) return "--";
  std::string san;
  if (m.kind() == Move::kCastling) {
    san = castles_kingside(m) ? "O-O" : "O-O-O";
  } else {
    const Square from = m.from(), to = m.to();
    const PieceType pt = type_of(board.piece_on(from));
    const bool capture = board.is_capture(m);
    if (pt == kPawn) {
      if (capture) {
        san += char('a' + file_of(from));
        san += 'x';
      }
    } else {
      san += "PNBRQK"[pt];
      // Other pieces of the same kind that could legally go to the same square.
      Bitboard others =
          pieces_reaching(board, pt, to, board.pieces(board.side_to_move(), pt) & ~square_bb(from));
      Bitboard rivals = 0;
      while (others) {
        const Square s = pop_lsb(others);
        if (board.is_legal_pseudo(Move(s, to))) rivals |= square_bb(s);
      }
      if (rivals) {
        if (!(rivals & file_bb(file_of(from)))) {
          san += char('a' + file_of(from));
        } else if (!(rivals & rank_bb(rank_of(from)))) {
          san += char('1' + rank_of(from));
        } else {
          san += char('a' + file_of(from));
          san += char('1' + rank_of(from));
        }
      }
      if (capture) san += 'x';
    }
    san += char('a' + file_of(to));
    san += char('1' + rank_of(to));
    if (m.kind() == Move::kPromotion) {
      san += '=';
      san += "PNBRQK"[m.promotion()];
    }
  }
  if (board.gives_check(m)) {
    Board after = board;
    UndoInfo undo;
    after.make_move(m, undo);
    MoveList replies;
    generate_legal(after, replies);
    san += replies.size() == 0 ? '#' : '+';
  }
  return san;
}

}  // namespace bookforge::chess
