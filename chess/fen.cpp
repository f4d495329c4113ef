// FEN in and out for Board. The parser validates every field and says which one is wrong.
#include <array>
#include <charconv>
#include <string>
#include <string_view>

#include "chess/attacks.h"
#include "chess/board.h"
#include "chess/castling.h"

namespace bookforge::chess {
namespace {

constexpr std::string_view kPieceChars = "PNBRQK  pnbrqk";  // indexed by Piece

Piece piece_from_char(char c) {
  size_t i = kPieceChars.find(c);
  return (i == std::string_view::npos || c == ' ') ? kNoPiece : Piece(i);
}

char piece_char(Piece p) { return kPieceChars[color_of(p) == kWhite ? type_of(p) : type_of(p) + 8]; }

Error fen_error(std::string_view fen, const std::string& what) {
  std::string shown(fen.substr(0, 100));
  if (fen.size() > 100) shown += "...";
  return Error{"bad FEN \"" + shown + "\": " + what};
}

// Splits on spaces and tabs. Returns the number of fields found (up to 7, to detect excess).
int split_fields(std::string_view text, std::array<std::string_view, 7>& fields) {
  int n = 0;
  size_t i = 0;
  while (i < text.size() && n < 7) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) fields[n++] = text.substr(start, i - start);
  }
  return n;
}

bool parse_counter(std::string_view s, unsigned& value) {
  if (s.empty() || s.size() > 5) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && ptr == s.data() + s.size() && value <= 65535;
}

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

// A FEN read from a file or pasted keeps its line break or surrounding blanks: they are not part
// of it. (Inside it, only spaces and tabs separate fields.)
std::string_view without_surrounding_space(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\v\f";
  const size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// The rook a standard-chess right names: on its corner, with the king on e1/e8. kNoSquare if
// either is missing.
Square standard_castling_rook(const Board& b, Color c, bool kingside) {
  const Square rook = castling_rook_from(c, kingside);
  const bool ok =
      b.piece_on(castling_king_from(c)) == make_piece(c, kKing) && b.piece_on(rook) == make_piece(c, kRook);
  return ok ? rook : kNoSquare;
}

// The rook an X-FEN or Shredder-FEN letter names (upper case: 'K', 'Q' or a file 'A'-'H'):
// K and Q the outermost rook on that side of the king, a file the rook on that file. kNoSquare
// when the king is off its back rank or there is no such rook.
Square chess960_castling_rook(const Board& b, Color c, char letter) {
  const int back_rank = c == kWhite ? 0 : 7;
  const Square king = b.king_square(c);
  if (rank_of(king) != back_rank) return kNoSquare;
  const Bitboard rooks = b.pieces(c, kRook) & rank_bb(back_rank);
  if (letter == 'K') {
    const Bitboard beyond = rooks & ~((square_bb(king) << 1) - 1);
    return beyond ? msb(beyond) : kNoSquare;
  }
  if (letter == 'Q') {
    const Bitboard before = rooks & (square_bb(king) - 1);
    return before ? lsb(before) : kNoSquare;
  }
  const Square rook = make_square(letter - 'A', back_rank);
  return (rooks & square_bb(rook)) ? rook : kNoSquare;
}

}  // namespace

Result<Board> Board::from_fen(std::string_view text, bool chess960) {
  const std::string_view fen = without_surrounding_space(text);
  std::array<std::string_view, 7> fields;
  const int n = split_fields(fen, fields);
  if (n < 4)
    return fen_error(
        fen, "has " + std::to_string(n) +
                 " fields; expected at least 4 (piece placement, side to move, castling, en passant)");
  if (n > 6) return fen_error(fen, "has more than 6 fields");

  Board b{EmptyTag{}};

  // Field 1: piece placement, rank 8 first.
  {
    int rank = 7, file = 0;
    for (char c : fields[0]) {
      if (c == '/') {
        if (file != 8)
          return fen_error(fen, "piece placement: rank " + std::to_string(rank + 1) + " has " +
                                    std::to_string(file) + " squares, not 8");
        if (--rank < 0) return fen_error(fen, "piece placement: more than 8 ranks");
        file = 0;
      } else if (c >= '1' && c <= '8') {
        file += c - '0';
        if (file > 8)
          return fen_error(fen, "piece placement: rank " + std::to_string(rank + 1) + " is too long");
      } else {
        Piece p = piece_from_char(c);
        if (p == kNoPiece) return fen_error(fen, std::string("piece placement: bad character '") + c + "'");
        if (file >= 8)
          return fen_error(fen, "piece placement: rank " + std::to_string(rank + 1) + " is too long");
        b.put_piece(p, make_square(file++, rank));
      }
    }
    if (rank != 0) return fen_error(fen, "piece placement: " + std::to_string(8 - rank) + " ranks, not 8");
    if (file != 8)
      return fen_error(fen, "piece placement: rank 1 has " + std::to_string(file) + " squares, not 8");
  }
  for (Color c : {kWhite, kBlack}) {
    const char* name = c == kWhite ? "white" : "black";
    const int kings = popcount(b.pieces(c, kKing));
    if (kings != 1)
      return fen_error(
          fen, std::string("piece placement: ") + name + " has " + std::to_string(kings) + " kings, not 1");
    if (popcount(b.pieces(c)) > 16)
      return fen_error(fen, std::string("piece placement: ") + name + " has more than 16 pieces");
    if (popcount(b.pieces(c, kPawn)) > 8)
      return fen_error(fen, std::string("piece placement: ") + name + " has more than 8 pawns");
  }
  if (b.pieces(kPawn) & (rank_bb(0) | rank_bb(7)))
    return fen_error(fen, "piece placement: a pawn on rank 1 or 8");

  // Field 2: side to move.
  if (fields[1] == "w")
    b.side_ = kWhite;
  else if (fields[1] == "b")
    b.side_ = kBlack;
  else
    return fen_error(fen, "side to move: \"" + std::string(fields[1].substr(0, 10)) + "\" is not w or b");

  // Field 3: castling rights. Stale rights (king or rook missing) are dropped; any other
  // character is an error, and so is a right given twice.
  b.castling_ = kNoCastling;
  b.chess960_ = chess960;
  if (fields[2] != "-") {
    const bool standard = !chess960 && fields[2].find_first_not_of("KQkq") == std::string_view::npos;
    uint8_t given = kNoCastling;
    for (char c : fields[2]) {
      const Color color = c >= 'a' ? kBlack : kWhite;
      const char letter = color == kBlack ? char(c - 'a' + 'A') : c;
      if (letter != 'K' && letter != 'Q' && (letter < 'A' || letter > 'H'))
        return fen_error(fen, std::string("castling rights: bad character '") + c + "'");
      const Square rook = standard ? standard_castling_rook(b, color, letter == 'K')
                                   : chess960_castling_rook(b, color, letter);
      // Standard chess knows the side from the letter even when the right is stale.
      const bool kingside = standard ? letter == 'K' : rook > b.king_square(color);
      const CastlingRight right = castling_right(color, kingside);
      if (given & right) return fen_error(fen, std::string("castling rights: '") + c + "' given twice");
      if (standard || rook != kNoSquare) given |= right;
      if (rook == kNoSquare) continue;
      b.add_castling_right(color, rook);
      if (b.king_square(color) != castling_king_from(color) || rook != castling_rook_from(color, kingside))
        b.chess960_ = true;
    }
  }

  // Field 4: en-passant square: behind a pawn of the side that just moved, which can only
  // have come from two squares further back (both squares it crossed are empty).
  b.ep_square_ = kNoSquare;
  if (fields[3] != "-") {
    std::string_view f = fields[3];
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
      return fen_error(fen, "en passant: \"" + std::string(f.substr(0, 10)) + "\" is not a square or -");
    Square ep = make_square(f[0] - 'a', f[1] - '1');
    Color mover = ~b.side_;
    if (rank_of(ep) != (mover == kWhite ? 2 : 5))
      return fen_error(fen, "en passant: " + std::string(f) + " is on the wrong rank for " +
                                (b.side_ == kWhite ? "white" : "black") + " to move");
    int push = mover == kWhite ? 8 : -8;
    if (b.board_[ep + push] != make_piece(mover, kPawn) || b.board_[ep] != kNoPiece ||
        b.board_[ep - push] != kNoPiece)
      return fen_error(fen, "en passant: no pawn can just have moved two squares past " + std::string(f));
    b.ep_square_ = ep;
  }

  // Fields 5 and 6: the clocks (optional).
  unsigned halfmove = 0, fullmove = 1;
  if (n >= 5 && !parse_counter(fields[4], halfmove))
    return fen_error(fen, "halfmove clock: \"" + std::string(fields[4].substr(0, 10)) + "\" is not a number");
  if (n >= 6 && !parse_counter(fields[5], fullmove))
    return fen_error(fen,
                     "fullmove number: \"" + std::string(fields[5].substr(0, 10)) + "\" is not a number");
  b.halfmove_clock_ = uint16_t(halfmove);
  b.fullmove_number_ = uint16_t(fullmove == 0 ? 1 : fullmove);  // some writers start at 0

  Square their_king = b.king_square(~b.side_);
  if (b.attackers_to(their_king) & b.pieces(b.side_))
    return fen_error(fen, "illegal position: the side not to move is in check");

  b.key_ = polyglot_key_from_scratch(b);
  b.update_checkers();
  return b;
}

// X-FEN: K or Q when the right's rook is the outermost one on its side of the king (always so
// in standard chess), else the rook's file, upper case for White.
char Board::castling_letter(CastlingRight r) const {
  const Color c = castling_color(r);
  const Move m = castling_move(r);
  if (!chess960_) return "KQkq"[castling_index(r)];
  const Bitboard rooks = pieces(c, kRook) & rank_bb(rank_of(m.from()));
  const Bitboard outside = castles_kingside(m) ? ~((square_bb(m.to()) << 1) - 1) : square_bb(m.to()) - 1;
  const char letter = (rooks & outside) ? char('A' + file_of(m.to())) : castles_kingside(m) ? 'K' : 'Q';
  return c == kWhite ? letter : char(letter - 'A' + 'a');
}

std::string Board::fen() const {
  std::string s;
  s.reserve(90);
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = board_[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty);
      empty = 0;
      s += piece_char(p);
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  s += side_ == kWhite ? " w " : " b ";
  if (!castling_) s += '-';
  for (int i = 0; i < 4; ++i)
    if (castling_ & (1 << i)) s += castling_letter(CastlingRight(1 << i));
  s += ' ';
  s += ep_square_ == kNoSquare ? "-" : square_name(ep_square_);
  s += ' ' + std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
  return s;
}

}  // namespace bookforge::chess
