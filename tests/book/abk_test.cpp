// The ABK reader on books written here byte by byte from the documented layout
// (book/abk/format.h): the moves it finds, how they become Polyglot entries, and an error that
// names the file and the entry for every kind of damage.
#include <algorithm>

#include "base/little_endian.h"
#include "book/abk/format.h"
#include "book/abk/reader.h"
#include "book/abk/to_polyglot.h"
#include "book/book_file.h"
#include "support/converted_book_probe.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

// An ABK file being written: the header (the signature, then zeros), then entries appended in
// order; add() returns the new entry's number for the links of later ones.
class AbkFile {
 public:
  AbkFile() : bytes_(kAbkHeaderSize, 0) {
    std::copy(std::begin(kAbkMagic), std::end(kAbkMagic), bytes_.begin());
  }

  struct Entry {
    std::string uci;  // "e2e4", "a7a8q"
    uint32_t games = 0;
    uint8_t priority = 0;
  };

  int32_t add(const Entry& e) {
    const size_t at = bytes_.size();
    bytes_.resize(at + kAbkEntrySize, 0);
    auto square = [](const std::string& s, size_t i) { return uint8_t((s[i] - 'a') + 8 * (s[i + 1] - '1')); };
    bytes_[at] = square(e.uci, 0);
    bytes_[at + 1] = square(e.uci, 2);
    bytes_[at + 2] = e.uci.size() > 4 ? uint8_t(std::string(" rnbq").find(e.uci[4])) : 0;
    bytes_[at + 3] = e.priority;
    store_le(&bytes_[at + 4], e.games, 4);
    set_first_child(index_of(at), kAbkNoLink);
    set_next_sibling(index_of(at), kAbkNoLink);
    return index_of(at);
  }
  void set_first_child(int32_t entry, int32_t link) { store_le(at(entry) + 20, uint32_t(link), 4); }
  void set_next_sibling(int32_t entry, int32_t link) { store_le(at(entry) + 24, uint32_t(link), 4); }

  // Entries for one position: each a sibling of the one before. Returns the first.
  int32_t add_position(const std::vector<Entry>& moves) {
    int32_t first = kAbkNoLink, previous = kAbkNoLink;
    for (const Entry& m : moves) {
      int32_t e = add(m);
      if (previous == kAbkNoLink)
        first = e;
      else
        set_next_sibling(previous, e);
      previous = e;
    }
    return first;
  }

  const std::vector<unsigned char>& bytes() const { return bytes_; }
  std::vector<unsigned char>& bytes() { return bytes_; }

 private:
  static int32_t index_of(size_t offset) { return int32_t(offset / kAbkEntrySize); }
  unsigned char* at(int32_t entry) { return &bytes_[size_t(entry) * kAbkEntrySize]; }
  std::vector<unsigned char> bytes_;
};

// 1. e4 (30 games) / 1. d4 (10); after 1. e4: e5 (20) / c5 (10); 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5
// 4. O-O (3 games); and 1. Nf3 Nc6 2. e4 e5 3. Bc4 (4 games), which transposes to the position
// after 1. e4 e5 2. Nf3 Nc6, where 3. Bc4 has 5 games along the first line.
AbkFile sample_book() {
  AbkFile f;
  const int32_t e4 = f.add_position({{"e2e4", 30}, {"d2d4", 10}, {"g1f3", 2}});
  const int32_t nf3_first = e4 + 2;
  const int32_t e5 = f.add_position({{"e7e5", 20}, {"c7c5", 10}});
  f.set_first_child(e4, e5);
  int32_t previous = e5;
  for (const AbkFile::Entry& m :
       std::vector<AbkFile::Entry>{{"g1f3", 15}, {"b8c6", 12}, {"f1c4", 5}, {"f8c5", 3}, {"e1g1", 3}}) {
    const int32_t e = f.add(m);
    f.set_first_child(previous, e);
    previous = e;
  }
  previous = nf3_first;
  for (const AbkFile::Entry& m :
       std::vector<AbkFile::Entry>{{"b8c6", 2}, {"e2e4", 2}, {"e7e5", 2}, {"f1c4", 4}}) {
    const int32_t e = f.add(m);
    f.set_first_child(previous, e);
    previous = e;
  }
  return f;
}

std::string error_of(const std::vector<unsigned char>& bytes) {
  Result<std::vector<AbkMove>> read = read_abk(bytes, "t.abk");
  return read.ok() ? std::string("(read without error)") : read.error().message;
}

TEST(Abk, EveryEntryIsARecordOfItsPosition) {
  const AbkFile f = sample_book();
  Result<std::vector<AbkMove>> read = read_abk(f.bytes(), "t.abk");
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 14u);
  EXPECT_EQ((*read)[0].key, chess::Board().key());
  EXPECT_EQ((*read)[0].games, 30u);
  EXPECT_EQ((*read)[1].key, after("e2e4").key());  // depth first: e4's replies before d4
}

TEST(Abk, ConvertedBookGivesTheMovesWeighedByGames) {
  const AbkFile f = sample_book();
  Result<PolyglotBook> book = polyglot_from_abk(f.bytes(), "t.abk");
  ASSERT_TRUE(book.ok()) << book.error().message;
  EXPECT_EQ(moves_of(*book, chess::Board()), (std::vector<std::string>{"e2e4:30", "d2d4:10", "g1f3:2"}));
  EXPECT_EQ(moves_of(*book, after("e2e4")), (std::vector<std::string>{"e7e5:20", "c7c5:10"}));
  // The two lines meet: 3. Bc4 has 5 + 4 games, once.
  EXPECT_EQ(moves_of(*book, after("e2e4 e7e5 g1f3 b8c6")), (std::vector<std::string>{"f1c4:9"}));
  // Castling, stored as the king's two-square move, is written as king takes rook.
  const chess::Board before_castling = after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
  std::vector<PolyglotEntry> castling = book->find(before_castling.key());
  ASSERT_EQ(castling.size(), 1u);
  EXPECT_EQ(polyglot_move_text(castling[0].move), "e1h1");
  EXPECT_EQ(moves_of(*book, before_castling), (std::vector<std::string>{"e1g1:3"}));
}

TEST(Abk, PrioritiesWeighWhereAPositionHasNoGames) {
  AbkFile f;
  f.add_position({{"e2e4", 0, 7}, {"d2d4", 0, 3}, {"c2c4", 0, 0}});
  Result<PolyglotBook> book = polyglot_from_abk(f.bytes(), "t.abk");
  ASSERT_TRUE(book.ok()) << book.error().message;
  EXPECT_EQ(moves_of(*book, chess::Board()), (std::vector<std::string>{"e2e4:7", "d2d4:3", "c2c4:0"}));
}

TEST(Abk, HugeCountsAreScaledPerPosition) {
  AbkFile f;
  f.add_position({{"e2e4", 4000000000u}, {"d2d4", 1000000000u}});
  Result<PolyglotBook> book = polyglot_from_abk(f.bytes(), "t.abk");
  ASSERT_TRUE(book.ok()) << book.error().message;
  EXPECT_EQ(moves_of(*book, chess::Board()), (std::vector<std::string>{"e2e4:65535", "d2d4:16383"}));
}

TEST(Abk, AnEmptyBookHasNoMoves) {
  Result<std::vector<AbkMove>> read = read_abk(AbkFile().bytes(), "t.abk");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(read->empty());
}

TEST(Abk, DamageIsNamedWithTheEntryAndItsOffset) {
  {
    AbkFile f = sample_book();
    f.bytes().resize(f.bytes().size() - 5);
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: size 25587 bytes leaves a partial entry at byte offset 25564 (entries "
              "are 28 bytes after the 25200-byte header; truncated?)");
  }
  {
    std::vector<unsigned char> header(1000, 0);
    std::copy(std::begin(kAbkMagic), std::end(kAbkMagic), header.begin());
    EXPECT_EQ(error_of(header), "t.abk: 1000 bytes, shorter than the 25200-byte ABK header (truncated?)");
  }
  {
    AbkFile f = sample_book();
    f.bytes()[1] = 'X';
    EXPECT_EQ(error_of(f.bytes()), "t.abk: does not start with \"\\x03ABK\", so not an Arena ABK book");
  }
  {
    AbkFile f = sample_book();
    f.set_next_sibling(901, 5000);
    EXPECT_EQ(
        error_of(f.bytes()),
        "t.abk: entry 901 (byte offset 25228): links to entry 5000, outside the book's entries 900..913");
  }
  {
    AbkFile f = sample_book();
    f.set_first_child(900, 17);  // into the header
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: entry 900 (byte offset 25200): links to entry 17, outside the book's entries 900..913");
  }
  {
    AbkFile f = sample_book();
    f.set_next_sibling(904, 903);  // c5's sibling is e5 again: a loop
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: entry 904 (byte offset 25312): links to entry 903, which was already "
              "reached (a loop, or two lines sharing entries)");
  }
  {
    AbkFile f = sample_book();
    f.set_first_child(903, 903);  // e5 is its own reply
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: entry 903 (byte offset 25284): links to entry 903, which was already "
              "reached (a loop, or two lines sharing entries)");
  }
  {
    AbkFile f;
    f.add({"e2e5"});
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: entry 900 (byte offset 25200): move e2e5 is not legal in "
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  }
  {
    AbkFile f;
    f.add({"e2e4"});
    f.bytes()[kAbkHeaderSize + 1] = 64;
    EXPECT_EQ(error_of(f.bytes()),
              "t.abk: entry 900 (byte offset 25200): square or promotion out of range (from 12, to 64, "
              "promotion 0)");
  }
}

TEST(Abk, BookFilesAreOpenedByExtensionOrSignature) {
  test::TempDir tmp;
  const AbkFile f = sample_book();
  const std::string bytes(f.bytes().begin(), f.bytes().end());
  for (const char* name : {"a.abk", "a.ABK", "arena-book"}) {
    test::write_file(tmp / name, bytes);
    Result<PolyglotBook> book = open_book_file((tmp / name).string());
    ASSERT_TRUE(book.ok()) << name << ": " << book.error().message;
    EXPECT_EQ(book->find(chess::Board().key()).size(), 3u) << name;
  }
  // Named .bin, the same bytes are taken for a Polyglot book (and refused as one).
  test::write_file(tmp / "a.bin", bytes);
  Result<PolyglotBook> as_bin = open_book_file((tmp / "a.bin").string());
  ASSERT_FALSE(as_bin.ok());
  EXPECT_NE(as_bin.error().message.find("not a multiple of 16"), std::string::npos) << as_bin.error().message;
  // A damaged .abk names its file.
  test::write_file(tmp / "short.abk", bytes.substr(0, bytes.size() - 5));
  Result<PolyglotBook> damaged = open_book_file((tmp / "short.abk").string());
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error().message.rfind((tmp / "short.abk").string() + ": size 25587 bytes", 0), 0u)
      << damaged.error().message;
}

}  // namespace
}  // namespace bookforge::book
