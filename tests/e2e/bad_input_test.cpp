// Input that is not PGN is an error naming the file, with nothing written or recorded; a
// build that keeps nothing says why and writes no book unless --allow-empty; an impossible
// move is reported with its own reason.
#include <algorithm>
#include <filesystem>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

const std::string kTwic = "twic0920-2000.pgn";

// A PNG's signature and header chunk, then bytes of compressed-looking noise (NULs, letters
// and punctuation all occur).
std::string fake_png() {
  std::string bytes("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0", 33);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 40000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    bytes += char(x & 0xFF);
  }
  return bytes;
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

CommandResult build(const std::vector<std::string>& args) {
  std::vector<std::string> all{"build", "--progress", "never"};
  all.insert(all.end(), args.begin(), args.end());
  return run_bookforge(all);
}

CommandResult db_add(const fs::path& db, std::vector<std::string> args) {
  std::vector<std::string> all{"db", "add", "--db", db.string(), "--progress", "never"};
  all.insert(all.end(), args.begin(), args.end());
  return run_bookforge(all);
}

TEST(BadInput, BuildFromAPictureFailsAndWritesNothing) {
  TempDir dir;
  write_file(dir / "image.png", fake_png());
  CommandResult r = build({(dir / "image.png").string(), "-o", (dir / "book.bin").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find((dir / "image.png").string() + ": not PGN"), std::string::npos) << r.err;
  EXPECT_EQ(files_in(dir.path()), (std::vector<fs::path>{"image.png"}));
  // Among good inputs too: the run fails as a whole.
  CommandResult mixed =
      build({sample(kTwic).string(), (dir / "image.png").string(), "-o", (dir / "book.bin").string()});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.err.find("image.png: not PGN"), std::string::npos) << mixed.err;
  EXPECT_EQ(files_in(dir.path()), (std::vector<fs::path>{"image.png"}));
}

TEST(BadInput, DbAddOfAPictureRecordsNothing) {
  TempDir dir;
  write_file(dir / "image.png", fake_png());
  CommandResult fresh = db_add(dir / "new.sqlite", {(dir / "image.png").string()});
  EXPECT_EQ(fresh.exit_code, 1);
  EXPECT_NE(fresh.err.find("image.png: not PGN"), std::string::npos) << fresh.err;
  EXPECT_EQ(files_in(dir.path()), (std::vector<fs::path>{"image.png"}));

  const fs::path db = dir / "t.sqlite";
  ASSERT_EQ(db_add(db, {sample(kTwic)}).exit_code, 0);
  const std::string before = dump_tree(db);
  CommandResult added = db_add(db, {(dir / "image.png").string()});
  EXPECT_EQ(added.exit_code, 1);
  EXPECT_EQ(sql_rows(db, "SELECT count(*) FROM sources"), "1\n");
  EXPECT_EQ(dump_tree(db), before);
}

TEST(BadInput, Utf16IsRefusedNamingTheFileAndTheEncoding) {
  // What Windows editors save as "Unicode": UTF-16 with a BOM; and big-endian without one,
  // gzipped. Read as bytes, it made thousands of games of NUL-separated letters, and exit 0.
  TempDir dir;
  const std::string twic = read_file(sample(kTwic));
  const auto iconv = [](const std::string& to, const std::string& text) {
    CommandResult r = run_program({"iconv", "-f", "UTF-8", "-t", to}, text);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  write_file(dir / "games.pgn", iconv("UTF-16LE", "\xef\xbb\xbf" + twic));
  write_file(dir / "games-be.pgn", iconv("UTF-16BE", twic));
  ASSERT_EQ(run_program({"gzip", (dir / "games-be.pgn").string()}).exit_code, 0);
  const std::vector<fs::path> inputs{"games-be.pgn.gz", "games.pgn"};
  const std::string reads =
      "; bookforge reads UTF-8 (or ASCII/Latin-1) PGN: convert it first, e.g. iconv -f ";
  const std::pair<std::string, std::string> cases[] = {
      {"games.pgn", "UTF-16 (little-endian) text" + reads + "UTF-16LE -t UTF-8"},
      {"games-be.pgn.gz", "UTF-16 (big-endian) text, gzip-compressed" + reads + "UTF-16BE -t UTF-8"}};
  const std::string book = (dir / "book.bin").string();
  for (const auto& [file, says] : cases) {
    const std::string path = (dir / file).string();
    const std::string error = "bookforge: error: " + path + ": " + says + "\n";
    CommandResult scan = run_bookforge({"scan", path, "--progress", "never"});
    EXPECT_EQ(scan.exit_code, 1) << scan.out;
    EXPECT_EQ(scan.err, error);
    EXPECT_EQ(scan.out, "");
    CommandResult built = build({path, "-o", book});
    EXPECT_EQ(built.exit_code, 1) << built.out;
    EXPECT_EQ(built.err, error);
    // After a good input too: the run fails as a whole.
    CommandResult mixed = build({sample(kTwic).string(), path, "-o", book, "--threads", "2"});
    EXPECT_EQ(mixed.exit_code, 1) << mixed.out;
    EXPECT_EQ(mixed.err, error);
    CommandResult added = db_add(dir / "games.sqlite", {path});
    EXPECT_EQ(added.exit_code, 1) << added.out;
    EXPECT_NE(added.err.find(path + ": " + says), std::string::npos) << added.err;
    // No book, no store, no temporary file.
    EXPECT_EQ(files_in(dir.path()), inputs) << file;
  }
  // Converted as the message says, the file builds the book of the original.
  TempDir out;
  CommandResult converted =
      run_program({"iconv", "-f", "UTF-16LE", "-t", "UTF-8", (dir / "games.pgn").string()});
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  write_file(out / "converted.pgn", converted.out);
  ASSERT_EQ(build({(out / "converted.pgn").string(), "-o", (out / "converted.bin").string()}).exit_code, 0);
  ASSERT_EQ(build({sample(kTwic).string(), "-o", (out / "original.bin").string()}).exit_code, 0);
  EXPECT_EQ(read_file(out / "converted.bin"), read_file(out / "original.bin"));
}

TEST(BadInput, ProseEmptyFilesAndNulBytesAreNotPgn) {
  TempDir dir;
  write_file(dir / "readme.txt", "This folder holds the pictures of the tournament.\nSee you there!\n");
  write_file(dir / "empty.pgn", "");
  write_file(dir / "zeros.bin", std::string(10000, '\0'));
  for (const char* name : {"readme.txt", "empty.pgn", "zeros.bin"}) {
    CommandResult r = run_bookforge({"scan", (dir / name).string(), "--progress", "never"});
    EXPECT_EQ(r.exit_code, 1) << name << ": " << r.out;
    EXPECT_NE(r.err.find((dir / name).string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("PGN"), std::string::npos) << r.err;
  }
}

TEST(BadInput, GamesThatAreAllFilteredOutAreStillPgn) {
  // Tagged games rejected by a filter, and games without tags rejected by a rating filter:
  // both files are PGN, so scan reads them without error.
  CommandResult tagged =
      run_bookforge({"scan", sample(kTwic).string(), "--min-elo", "4000", "--progress", "never", "--json"});
  EXPECT_EQ(tagged.exit_code, 0) << tagged.err;
  EXPECT_NE(tagged.out.find("\"accepted\":0"), std::string::npos) << tagged.out;
  const std::string no_tags = (source_dir() / "tests/data/pgn/no_tags.pgn").string();
  CommandResult tagless = run_bookforge({"scan", no_tags, "--min-elo", "2000", "--progress", "never"});
  EXPECT_EQ(tagless.exit_code, 0) << tagless.err;
}

TEST(BadInput, ABuildThatKeepsNoGameSaysWhyAndWritesNoBook) {
  TempDir dir;
  const std::string book = (dir / "book.bin").string();
  CommandResult none = build({sample(kTwic).string(), "--min-elo", "4000", "-o", book});
  EXPECT_EQ(none.exit_code, 1) << none.out;
  EXPECT_NE(none.err.find("empty book not written"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("rejected by the filters (min_elo 2,000)"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("--allow-empty"), std::string::npos) << none.err;
  EXPECT_TRUE(files_in(dir.path()).empty());

  CommandResult allowed = build({sample(kTwic).string(), "--min-elo", "4000", "-o", book, "--allow-empty"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  ASSERT_TRUE(fs::exists(book));
  EXPECT_EQ(fs::file_size(book), 0u);
}

TEST(BadInput, ABuildWhoseRulesKeepNoMoveSaysWhy) {
  TempDir dir;
  const std::string book = (dir / "book.bin").string();
  CommandResult r = build({sample(kTwic).string(), "--min-games", "1000000", "-o", book});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("the selection rules kept no move of the 2000 game(s) kept"), std::string::npos)
      << r.err;
  EXPECT_TRUE(files_in(dir.path()).empty());
}

TEST(BadInput, AMoveOntoOwnPieceIsNotCalledACheck) {
  CommandResult r = run_bookforge({"key", "--moves", "e4 Qd7"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("the target square holds a piece of the side to move"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("check"), std::string::npos) << r.err;
}

TEST(BadInput, ACaptureOfOwnKingInAGameIsReportedWithItsReason) {
  // pgnmentor part 1, game 95447: 31. Qxe1, onto the square where White's own king stands.
  const std::string pgn = (source_dir() / "tests/data/pgn/own_king_capture.pgn").string();
  CommandResult r = run_bookforge({"scan", pgn, "--max-ply", "0", "--progress", "never", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Qxe1: the target square holds a piece of the side to move"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("leave the king in check"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace bookforge::test
