// The book queries end to end: probe (text and the exact --json shape), pick, info, dump
// (PGN that reads back, CSV, JSON), merge without wrap-around, and damaged books.
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "e2e/book_fixtures.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

// One book from the shipped sample, built once for all the tests here.
class BookQuery : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    CommandResult r =
        run_bookforge({"build", "-q", (source_dir() / "data-samples" / "twic0920-2000.pgn").string(), "-o",
                       book(), "--min-move-games", "10", "--prune-unreachable"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string book() { return (*dir_ / "sample.bin").string(); }
  static TempDir* dir_;
};
TempDir* BookQuery::dir_ = nullptr;

using Json = nlohmann::ordered_json;

// An object's keys, in order.
std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

std::string bytes_of(const std::vector<RawEntry>& entries) {
  std::string out;
  for (const RawEntry& e : entries) {
    for (int i = 7; i >= 0; --i) out += char(e.key >> (8 * i));
    out += char(e.move >> 8), out += char(e.move);
    out += char(e.weight >> 8), out += char(e.weight);
    for (int i = 3; i >= 0; --i) out += char(e.learn >> (8 * i));
  }
  return out;
}

TEST_F(BookQuery, ProbeShowsMovesSharesAndOpeningNames) {
  CommandResult r = run_bookforge({"probe", book()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("463b96181691fc9c"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\\ne4 +e2e4 +[0-9]+ +[0-9.]+% +0 +B00 King's Pawn Game")))
      << r.out;
  r = run_bookforge({"probe", book(), "--moves", "e4 c5"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("opening   B20 Sicilian Defense"), std::string::npos) << r.out;
}

TEST_F(BookQuery, ProbeJsonHasTheDocumentedShape) {
  CommandResult r = run_bookforge({"probe", book(), "--moves", "e4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json probed = Json::parse(r.out);
  EXPECT_EQ(keys_of(probed), (std::vector<std::string>{"key", "moves"})) << r.out;
  EXPECT_EQ(probed["key"], "823c9b50fd114196");
  ASSERT_FALSE(probed["moves"].empty());
  for (const Json& move : probed["moves"]) {
    EXPECT_EQ(keys_of(move), (std::vector<std::string>{"uci", "san", "weight", "learn"})) << r.out;
    EXPECT_TRUE(std::regex_match(move["uci"].get<std::string>(), std::regex("[a-h][1-8][a-h][1-8][qrbn]?")));
    EXPECT_TRUE(move["san"].is_string() && move["weight"].is_number_unsigned() &&
                move["learn"].is_number_unsigned());
  }
  // The same position given as UCI moves or as a FEN.
  EXPECT_EQ(run_bookforge({"probe", book(), "--moves", "e2e4", "--json"}).out, r.out);
  EXPECT_EQ(run_bookforge({"probe", book(), "--fen",
                           "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "--json"})
                .out,
            r.out);
  // A position the book does not have.
  CommandResult none = run_bookforge({"probe", book(), "--moves", "a3 h6 h3", "--json"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_TRUE(Json::parse(none.out)["moves"].empty()) << none.out;
}

TEST_F(BookQuery, BadPositionsAreUsageErrors) {
  CommandResult r = run_bookforge({"probe", book(), "--moves", "e4 e4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--moves"), std::string::npos) << r.err;
  r = run_bookforge({"pick", book(), "--fen", "not a fen"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fen"), std::string::npos) << r.err;
}

TEST_F(BookQuery, PickIsReproducibleAndFollowsTheWeights) {
  CommandResult best = run_bookforge({"pick", book(), "--best"});
  ASSERT_EQ(best.exit_code, 0) << best.err;
  EXPECT_EQ(best.out, "e2e4 e4\n");
  EXPECT_EQ(run_bookforge({"pick", book(), "--seed", "42"}).out,
            run_bookforge({"pick", book(), "--seed", "42"}).out);
  std::map<std::string, int> seen;
  for (int seed = 0; seed < 60; ++seed)
    ++seen[run_bookforge({"pick", book(), "--seed", std::to_string(seed)}).out];
  EXPECT_GE(seen.size(), 2u) << "a weighted choice, not always the same move";
  EXPECT_GT(seen["e2e4 e4\n"], seen["c2c4 c4\n"]) << "e4 weighs several times c4";
  CommandResult none = run_bookforge({"pick", book(), "--moves", "a3 h6 h3"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_TRUE(none.out.empty());
}

TEST_F(BookQuery, InfoReportsSizeReachabilityAndTheLongestLine) {
  CommandResult r = run_bookforge({"info", book(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t entries = read_raw_book(book()).size();
  const Json info = Json::parse(r.out);
  EXPECT_EQ(info["entries"], entries) << r.out;
  EXPECT_EQ(info["size"], entries * 16);
  EXPECT_EQ(info["valid"], true);
  EXPECT_EQ(info["illegal_entries"], 0);
  EXPECT_TRUE(std::regex_search(info["longest_line"].get<std::string>(), std::regex("^1\\. [a-hNBRQKO]")))
      << r.out;
  // A pruned book is reachable throughout.
  EXPECT_EQ(info["positions"], info["reachable_positions"]);
  CommandResult text = run_bookforge({"info", book()});
  EXPECT_NE(text.out.find("valid       yes"), std::string::npos) << text.out;
}

TEST_F(BookQuery, DumpPgnReadsBackAsOneGameWithVariations) {
  CommandResult r = run_bookforge({"dump", book(), "--max-ply", "8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1. e4 ("), std::string::npos) << r.out.substr(0, 400);
  TempDir tmp;
  write_file(tmp / "dump.pgn", r.out);
  CommandResult scan = run_bookforge({"scan", (tmp / "dump.pgn").string(), "--json"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(Json::parse(scan.out)["accepted"], 1) << scan.out;
  EXPECT_EQ(Json::parse(scan.out)["bad"], 0) << scan.out;
}

TEST_F(BookQuery, DumpCsvListsEveryReachableEntryOnce) {
  CommandResult r = run_bookforge({"dump", book(), "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "ply,key,fen,line,uci,san,weight,learn");
  std::set<std::pair<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        fields.push_back(field), field.clear();
      else
        field += c;
    }
    fields.push_back(field);
    ASSERT_EQ(fields.size(), 8u) << line;
    EXPECT_TRUE(rows.insert({fields[1], fields[4]}).second) << "row twice: " << line;
  }
  EXPECT_EQ(rows.size(), read_raw_book(book()).size());
  CommandResult shallow = run_bookforge({"dump", book(), "--format", "csv", "--max-ply", "2"});
  EXPECT_EQ(shallow.out.find("\n2,"), std::string::npos) << "nothing from ply 2 with --max-ply 2";
  EXPECT_NE(shallow.out.find("\n1,"), std::string::npos);
  CommandResult json = run_bookforge({"dump", book(), "--format", "json", "--max-ply", "1"});
  // One record a line, the first the start position's.
  EXPECT_TRUE(
      std::regex_match(json.out, std::regex("\\{\"positions\":\\[\n\\{\"ply\":0,[^\n]*\\]\\}\n\\]\\}\n")))
      << json.out;
  const Json records = Json::parse(json.out);
  ASSERT_EQ(records["positions"].size(), 1u);
  EXPECT_EQ(keys_of(records["positions"][0]),
            (std::vector<std::string>{"ply", "key", "fen", "line", "moves"}));
}

TEST(BookMergeCli, SumsWithoutWrapAroundUnlikePolyglot) {
  TempDir tmp;
  uint64_t start = 0x463b96181691fc9cULL;
  write_file(tmp / "a.bin", bytes_of({{start, 0x031c, 60000, 0}, {start, 0x0313, 20000, 0}}));
  write_file(tmp / "b.bin", bytes_of({{start, 0x031c, 10000, 0}}));
  CommandResult r = run_bookforge(
      {"merge", (tmp / "a.bin").string(), (tmp / "b.bin").string(), "-o", (tmp / "sum.bin").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  BookMap merged = book_map(read_raw_book(tmp / "sum.bin"));
  EXPECT_EQ(merged[start][0x031c], 65535);
  EXPECT_EQ(merged[start][0x0313], 18724);  // 20000 * 65535 / 70000
  r = run_bookforge({"merge", (tmp / "a.bin").string(), (tmp / "b.bin").string(), "-o",
                     (tmp / "max.bin").string(), "--strategy", "max"});
  EXPECT_EQ(book_map(read_raw_book(tmp / "max.bin"))[start][0x031c], 60000);

  // Polyglot's own merge-book wraps: 60000 + 10000 comes out as 4464.
  if (std::filesystem::exists("/usr/games/polyglot")) {
    CommandResult pg = run_program({"/usr/games/polyglot", "merge-book", "-in1", (tmp / "a.bin").string(),
                                    "-in2", (tmp / "b.bin").string(), "-out", (tmp / "pg.bin").string()});
    ASSERT_EQ(pg.exit_code, 0) << pg.err;
    EXPECT_EQ(book_map(read_raw_book(tmp / "pg.bin"))[start][0x031c], 4464);
  }
}

TEST(BookDamage, TruncatedAndUnsortedBooksGiveClearErrors) {
  TempDir tmp;
  write_file(tmp / "truncated.bin", bytes_of({{1, 0x31c, 1, 0}, {2, 0x31c, 1, 0}}).substr(0, 20));
  write_file(tmp / "unsorted.bin", bytes_of({{5, 0x31c, 1, 0}, {2, 0x31c, 1, 0}}));
  for (const char* command : {"probe", "pick", "info", "dump"}) {
    CommandResult r = run_bookforge({command, (tmp / "truncated.bin").string()});
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_NE((r.err + r.out).find("multiple of 16"), std::string::npos) << command << ": " << r.err;
    r = run_bookforge({command, (tmp / "unsorted.bin").string()});
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_NE((r.err + r.out).find("sorted by key"), std::string::npos) << command << ": " << r.err;
  }
  CommandResult r =
      run_bookforge({"merge", (tmp / "truncated.bin").string(), "-o", (tmp / "m.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(tmp / "m.bin"));
  r = run_bookforge({"probe", (tmp / "missing.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.bin"), std::string::npos);
}

}  // namespace
}  // namespace bookforge::test
