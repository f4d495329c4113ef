// The CTG reader on books written here byte by byte from the documented layout
// (book/ctg/format.h, board_code.h, move_code.h): the board code, how a real position is turned
// to be stored (flipped, mirrored, en passant), the moves it finds from the start position, how
// they become Polyglot entries, and an error that names the file, the page and the byte offset
// for every kind of damage.
#include <string>
#include <vector>

#include "book/book_file.h"
#include "book/ctg/board_code.h"
#include "book/ctg/move_code.h"
#include "book/ctg/reader.h"
#include "book/ctg/to_polyglot.h"
#include "support/converted_book_probe.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

// The square code of board_code.h, as '0'/'1' text: `stored` is a FEN letter of the stored
// board (upper case: the side to move), or '.'.
std::string square_code(char stored) {
  if (stored == '.') return "0";
  const char type = char(std::toupper(stored));
  const std::string body = type == 'P'   ? "11"
                           : type == 'N' ? "1001"
                           : type == 'B' ? "1010"
                           : type == 'R' ? "1011"
                           : type == 'Q' ? "10001"
                                         : "10000";
  return body + (std::isupper(stored) ? "0" : "1");
}

struct Record {
  std::string board;  // the stored board, FEN's first field
  uint8_t castling = 0;
  int en_passant = -1;                                  // a file, or -1
  std::vector<uint8_t> moves;                           // code, annotation, ...
  uint32_t games = 0, wins = 0, losses = 0, draws = 0;  // wins: of the side to move
  uint8_t recommendation = 0;
};

// A record's position bytes: header, board code, padding, flags at the end of the last byte.
std::vector<unsigned char> position_bytes(const Record& r) {
  std::string squares(64, '.');
  int rank = 7, file = 0;
  for (char c : r.board) {
    if (c == '/') {
      --rank, file = 0;
    } else if (std::isdigit(c)) {
      file += c - '0';
    } else {
      squares[size_t(file * 8 + rank)] = c;  // file by file, as the code walks
      ++file;
    }
  }
  std::string bits;
  for (char c : squares) bits += square_code(c);
  std::string flags;
  if (r.en_passant >= 0)
    for (int b = 2; b >= 0; --b) flags += (r.en_passant >> b & 1) ? '1' : '0';
  if (r.castling)
    for (int b = 3; b >= 0; --b) flags += (r.castling >> b & 1) ? '1' : '0';
  while ((bits.size() + flags.size()) % 8 != 0) bits += '0';
  bits += flags;
  std::vector<unsigned char> out{0};
  for (size_t i = 0; i < bits.size(); i += 8)
    out.push_back(uint8_t(std::stoi(bits.substr(i, 8), nullptr, 2)));
  out[0] = uint8_t(out.size() | (r.en_passant >= 0 ? 0x20 : 0) | (r.castling ? 0x40 : 0));
  return out;
}

void put24(std::vector<unsigned char>& out, uint32_t v) {
  for (int shift : {16, 8, 0}) out.push_back(uint8_t(v >> shift));
}

std::vector<unsigned char> record_bytes(const Record& r) {
  std::vector<unsigned char> out = position_bytes(r);
  out.push_back(uint8_t(1 + r.moves.size()));
  out.insert(out.end(), r.moves.begin(), r.moves.end());
  for (uint32_t v : {r.games, r.wins, r.losses, r.draws}) put24(out, v);
  out.resize(out.size() + 18, 0);  // unknown, ratings
  out.push_back(r.recommendation);
  out.push_back(0);
  out.push_back(0);
  return out;
}

// A .ctg file: the header page, then one page per group of records.
std::vector<unsigned char> ctg_file(const std::vector<std::vector<Record>>& pages) {
  std::vector<unsigned char> out(4096, 0);
  for (const std::vector<Record>& records : pages) {
    std::vector<unsigned char> page{uint8_t(records.size() >> 8), uint8_t(records.size()), 0, 0};
    for (const Record& r : records) {
      const std::vector<unsigned char> bytes = record_bytes(r);
      page.insert(page.end(), bytes.begin(), bytes.end());
    }
    page[2] = uint8_t(page.size() >> 8), page[3] = uint8_t(page.size());
    page.resize(4096, 0);
    out.insert(out.end(), page.begin(), page.end());
  }
  return out;
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
// After 1. e4, stored turned: Black's pawns are the side to move's, White's e-pawn on e5.
const std::string kAfterE4 = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR";
const std::string kAfterD4 = "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR";
const std::string kAfterE4C5 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR";

// 1. e4 (code 0x5f: the 5th pawn two forward) / 1. d4 (0xe6); after 1. e4, 1... c5 (0x9b, the
// 3rd pawn two forward on the turned board) / 1... e5 (0x5f), whose position is not in the book.
std::vector<Record> sample_records() {
  return {
      {kStart, 0x0f, -1, {0x5f, 0, 0xe6, 0}, 20, 8, 6, 4},
      {kAfterE4, 0x0f, -1, {0x9b, 0, 0x5f, 0}, 10, 3, 5, 2},  // Black won 3, White 5
      {kAfterD4, 0x0f, -1, {}, 4, 1, 2, 1},
      {kAfterE4C5, 0x0f, -1, {}, 6, 2, 3, 1},  // White won 2, Black 3
  };
}

PolyglotBook converted(const std::vector<unsigned char>& bytes) {
  Result<PolyglotBook> book = polyglot_from_ctg(bytes, "t.ctg");
  EXPECT_TRUE(book.ok()) << book.error().message;
  return std::move(*book);
}

std::string error_of(const std::vector<unsigned char>& bytes) {
  Result<std::vector<CtgMove>> read = read_ctg(bytes, "t.ctg");
  return read.ok() ? std::string("(read without error)") : read.error().message;
}

TEST(CtgBoardCode, DecodesWhatTheLayoutEncodes) {
  const Record r{"r3k2r/8/8/8/8/8/8/R3K2R", 0b1011, 4, {}};
  const std::vector<unsigned char> bytes = position_bytes(r);
  std::optional<CtgBoard> board = decode_ctg_board(bytes);
  ASSERT_TRUE(board.has_value());
  EXPECT_EQ(board->squares[chess::kE1], chess::make_piece(chess::kWhite, chess::kKing));
  EXPECT_EQ(board->squares[chess::kH8], chess::make_piece(chess::kBlack, chess::kRook));
  EXPECT_EQ(board->squares[chess::kE4], chess::kNoPiece);
  EXPECT_EQ(board->castling, 0b1011);
  EXPECT_EQ(board->en_passant, 4);
  // Cut short, the bits no longer make 64 squares and the flags.
  EXPECT_FALSE(decode_ctg_board(std::span(bytes).first(bytes.size() - 1)).has_value());
}

TEST(CtgBoardCode, RealPositionsAreTurnedAsTheFormatStoresThem) {
  CtgOrientation o;
  // Black to move: upside down, colours swapped; castling rights turned to the side to move.
  Result<chess::Board> black = chess::Board::from_fen("4k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
  CtgBoard stored = ctg_board_of(*black, o);
  EXPECT_TRUE(o.flipped);
  EXPECT_FALSE(o.mirrored);
  EXPECT_EQ(stored.squares[chess::kE1], chess::make_piece(chess::kWhite, chess::kKing));
  EXPECT_EQ(stored.squares[chess::kH1], chess::make_piece(chess::kWhite, chess::kRook));
  EXPECT_EQ(stored.squares[chess::kH8], chess::make_piece(chess::kBlack, chess::kRook));
  EXPECT_EQ(stored.castling, kCtgOwnKingSide | kCtgTheirKingSide);

  // No castling and the side to move's king on d1: mirrored, so it stands on e1.
  Result<chess::Board> mirrored = chess::Board::from_fen("7k/8/8/8/8/8/8/3K4 w - - 0 1");
  stored = ctg_board_of(*mirrored, o);
  EXPECT_TRUE(o.mirrored);
  EXPECT_EQ(stored.squares[chess::kE1], chess::make_piece(chess::kWhite, chess::kKing));
  EXPECT_EQ(stored.squares[chess::kA8], chess::make_piece(chess::kBlack, chess::kKing));
  // ... and its moves come back mirrored: the king one forward (d1d2) and one to the right on
  // the stored board (e1f1), which is c1 on the real one.
  std::optional<CtgStoredMove> up = decode_ctg_move(0x13, stored), right = decode_ctg_move(0xbe, stored);
  ASSERT_TRUE(up && right);
  EXPECT_EQ(o.real_square(up->from), chess::kD1);
  EXPECT_EQ(o.real_square(up->to), chess::kD2);
  EXPECT_EQ(o.real_square(right->to), chess::kC1);

  // En passant only where a pawn of the side to move stands beside the pawn that moved two.
  EXPECT_EQ(ctg_board_of(after("e2e4"), o).en_passant, kCtgNoEnPassant);
  EXPECT_EQ(ctg_board_of(after("e2e4 a7a6 e4e5 f7f5"), o).en_passant, 5);
  EXPECT_EQ(ctg_board_of(after("e2e4 d7d5 a2a3 d5d4 c2c4"), o).en_passant, 2);
}

TEST(CtgMoveCode, CodesNameAPieceAndAStepAroundTheBoard) {
  CtgOrientation o;
  const CtgBoard start = ctg_board_of(chess::Board(), o);
  std::optional<CtgStoredMove> e4 = decode_ctg_move(0x5f, start);
  ASSERT_TRUE(e4.has_value());
  EXPECT_EQ(e4->from, chess::kE2);
  EXPECT_EQ(e4->to, chess::kE4);
  std::optional<CtgStoredMove> nc3 = decode_ctg_move(0x34, start);  // the first knight, 2 up 1 right
  ASSERT_TRUE(nc3.has_value());
  EXPECT_EQ(nc3->to, chess::kC3);
  // The second rook 7 to the right from h1 is g1: steps count around the board.
  std::optional<CtgStoredMove> rook = decode_ctg_move(0x21, start);
  ASSERT_TRUE(rook.has_value());
  EXPECT_EQ(rook->from, chess::kH1);
  EXPECT_EQ(rook->to, chess::kG1);
  EXPECT_FALSE(decode_ctg_move(0x02, start).has_value());  // no move has code 0x02
  // Castling is the king two to the right (O-O) or to the left (O-O-O).
  const CtgBoard castles = ctg_board_of(*chess::Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), o);
  std::optional<CtgStoredMove> short_castle = decode_ctg_move(0x6b, castles),
                               long_castle = decode_ctg_move(0xf6, castles);
  ASSERT_TRUE(short_castle && long_castle);
  EXPECT_EQ(short_castle->to, chess::kG1);
  EXPECT_EQ(long_castle->to, chess::kC1);
  const CtgBoard bare = ctg_board_of(*chess::Board::from_fen("7k/8/8/8/8/8/8/4K3 w - - 0 1"), o);
  EXPECT_FALSE(decode_ctg_move(0x5f, bare).has_value());  // no fifth pawn
}

TEST(Ctg, MovesAreReadFromTheStartPositionWithTheMoversResults) {
  Result<std::vector<CtgMove>> moves = read_ctg(ctg_file({sample_records()}), "t.ctg");
  ASSERT_TRUE(moves.ok()) << moves.error().message;
  ASSERT_EQ(moves->size(), 4u);
  // 1. e4 leads to the record after 1. e4, where White (the mover) won 5, lost 3, drew 2.
  const CtgMove& e4 = (*moves)[0];
  EXPECT_EQ(e4.key, chess::Board().key());
  EXPECT_TRUE(e4.in_book);
  EXPECT_EQ(e4.games, 10u);
  EXPECT_EQ(e4.wins, 5u);
  EXPECT_EQ(e4.losses, 3u);
  EXPECT_EQ(e4.draws, 2u);
}

TEST(Ctg, ConvertedBookWeighsHalfPointsAndListsMovesOutOfTheBook) {
  const PolyglotBook book = converted(ctg_file({sample_records()}));
  // 1. e4: 2 x 5 + 2 = 12; 1. d4: 2 x 2 + 1 = 5.
  EXPECT_EQ(moves_of(book, chess::Board()), (std::vector<std::string>{"e2e4:12", "d2d4:5"}));
  // 1... c5: Black won 3 and drew 1 there: 7. 1... e5 leads out of the book: listed, weight 0.
  EXPECT_EQ(moves_of(book, after("e2e4")), (std::vector<std::string>{"c7c5:7", "e7e5:0"}));
  EXPECT_TRUE(moves_of(book, after("d2d4")).empty());
}

TEST(Ctg, MarksChangeTheWeights) {
  std::vector<Record> records = sample_records();
  records[0].moves = {0x5f, kCtgMistake, 0xe6, kCtgExcellent};  // 1. e4? 1. d4!!
  EXPECT_EQ(moves_of(converted(ctg_file({records})), chess::Board()),
            (std::vector<std::string>{"d2d4:20", "e2e4:0"}));
  records[0].moves = {0x5f, kCtgDubious, 0xe6, kCtgGood};  // 1. e4?! 1. d4!
  EXPECT_EQ(moves_of(converted(ctg_file({records})), chess::Board()),
            (std::vector<std::string>{"d2d4:10", "e2e4:6"}));
  records[0].moves = {0x5f, 0, 0xe6, 0};
  records[1].recommendation = kCtgMarkedRed;    // the move to it, 1. e4, is red
  records[2].recommendation = kCtgMarkedGreen;  // 1. d4 is green
  EXPECT_EQ(moves_of(converted(ctg_file({records})), chess::Board()),
            (std::vector<std::string>{"d2d4:10", "e2e4:0"}));
}

TEST(Ctg, WithoutResultsGamesWeighAndWithoutGamesEveryMoveAlike) {
  std::vector<Record> records = sample_records();
  for (Record& r : records) r.wins = r.losses = r.draws = 0;
  EXPECT_EQ(moves_of(converted(ctg_file({records})), chess::Board()),
            (std::vector<std::string>{"e2e4:10", "d2d4:4"}));
  for (Record& r : records) r.games = 0;
  EXPECT_EQ(moves_of(converted(ctg_file({records})), chess::Board()),
            (std::vector<std::string>{"d2d4:1", "e2e4:1"}));
}

TEST(Ctg, RecordsAreFoundOnAnyPage) {
  const std::vector<Record> records = sample_records();
  const PolyglotBook book = converted(ctg_file({{records[3], records[1]}, {records[2]}, {records[0]}}));
  EXPECT_EQ(moves_of(book, chess::Board()), (std::vector<std::string>{"e2e4:12", "d2d4:5"}));
  EXPECT_EQ(moves_of(book, after("e2e4")), (std::vector<std::string>{"c7c5:7", "e7e5:0"}));
}

TEST(Ctg, DamageIsNamedWithThePageAndTheByteOffset) {
  const std::vector<unsigned char> good = ctg_file({sample_records()});
  EXPECT_EQ(error_of(std::vector<unsigned char>(100, 0)),
            "t.ctg: 100 bytes, shorter than the 4096-byte CTG header page");
  EXPECT_NE(error_of(std::vector<unsigned char>(good.begin(), good.end() - 10))
                .find("t.ctg: size 8182 bytes leaves a partial page at byte offset 4096"),
            std::string::npos);

  std::vector<unsigned char> bad = good;
  bad[4096 + 2] = 0x20, bad[4096 + 3] = 0;  // the page says it uses 8192 bytes
  EXPECT_EQ(error_of(bad),
            "t.ctg: page 1 (byte offset 4096): the page says it uses 8192 bytes, not within 4..4096");

  bad = good;
  bad[4096 + 1] = 9;  // nine records, four there
  EXPECT_NE(error_of(bad).find("t.ctg: page 1 (byte offset "), std::string::npos);
  EXPECT_NE(error_of(bad).find("record 5 of 9 starts past the page's"), std::string::npos) << error_of(bad);

  bad = good;
  bad[4096 + 4 + 22] = 2;  // the first record's move list: an even length
  EXPECT_EQ(error_of(bad),
            "t.ctg: page 1 (byte offset 4100): record 1 of 4: a move list of 2 bytes (1 + 2 per move) does "
            "not fit in the page");

  bad = good;
  bad[4096 + 4] = 0x40 | 3;  // a position of 3 bytes cannot hold a board
  EXPECT_EQ(error_of(bad),
            "t.ctg: page 1 (byte offset 4100): record 1 of 4: the position's bits do not make a board");

  std::vector<Record> records = sample_records();
  records[0].moves = {0x02, 0};
  EXPECT_EQ(error_of(ctg_file({records})),
            "t.ctg: page 1 (byte offset 4100): move 1 (code 2) names no move of the piece it codes in "
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  records[0].moves = {0x5f, 0, 0x05, 0};  // the queen one forward: d1d2, onto its own pawn
  EXPECT_EQ(error_of(ctg_file({records})),
            "t.ctg: page 1 (byte offset 4100): move 2 (code 5), d1d2, is not legal in "
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");

  records = sample_records();
  records.push_back(records[2]);
  EXPECT_NE(error_of(ctg_file({records})).find("the same position as the record at byte offset"),
            std::string::npos);
}

TEST(Ctg, AnEmptyBookHasNoMoves) {
  Result<std::vector<CtgMove>> moves = read_ctg(std::vector<unsigned char>(4096, 0), "t.ctg");
  ASSERT_TRUE(moves.ok()) << moves.error().message;
  EXPECT_TRUE(moves->empty());
}

TEST(Ctg, BookFilesAreOpenedByExtension) {
  test::TempDir tmp;
  const std::vector<unsigned char> bytes = ctg_file({sample_records()});
  test::write_file(tmp / "a.CTG", std::string(bytes.begin(), bytes.end()));
  Result<PolyglotBook> book = open_book_file((tmp / "a.CTG").string());
  ASSERT_TRUE(book.ok()) << book.error().message;
  EXPECT_EQ(moves_of(*book, chess::Board()), (std::vector<std::string>{"e2e4:12", "d2d4:5"}));
  EXPECT_EQ(book_format_of((tmp / "a.CTG").string()), BookFormat::kCtg);
}

}  // namespace
}  // namespace bookforge::book
