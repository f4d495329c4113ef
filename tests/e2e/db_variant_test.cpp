// Chess960 games in the store: a store fed with both variants (db add --variant any) answers for
// each as a store of that variant's games alone does, at the standard start and at Chess960
// start positions; a store of one variant answers with its own unless the other is named.
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kChess960 = sample("stockfish960-400.pgn.xz");
const fs::path kStandard = sample("twic0920-2000.pgn");

// `db explore --json` at `fen` (empty: the start position) with `more` flags: its moves and total.
Json explore(const fs::path& db, const std::string& fen, const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"db", "explore", "--db", db.string(), "--json"};
  if (!fen.empty()) args.insert(args.end(), {"--fen", fen});
  args.insert(args.end(), more.begin(), more.end());
  const CommandResult r = run_bookforge(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Json answer = Json::parse(r.out, nullptr, false);
  if (answer.is_discarded()) return Json();
  return Json{{"games", answer["games"]}, {"moves", answer["moves"]}};
}

// The start positions of the sample's first `n` games (their FEN tags).
std::vector<std::string> chess960_starts(size_t n) {
  const CommandResult r = run_program({"xz", "-dc", kChess960.string()});
  std::vector<std::string> fens;
  const std::regex tag(R"re(\[FEN "([^"]+)"\])re");
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), tag);
       it != std::sregex_iterator() && fens.size() < n; ++it)
    fens.push_back((*it)[1]);
  return fens;
}

class DbVariant : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    both_ = *dir_ / "both.db";
    standard_ = *dir_ / "standard.db";
    chess960_ = *dir_ / "chess960.db";
    for (auto [db, inputs, variant] :
         {std::tuple{both_, std::vector<std::string>{kStandard.string(), kChess960.string()}, "any"},
          std::tuple{standard_, std::vector<std::string>{kStandard.string()}, "standard"},
          std::tuple{chess960_, std::vector<std::string>{kChess960.string()}, "chess960"}}) {
      const CommandResult r = db_add_files(db, inputs, {"--variant", variant});
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static void TearDownTestSuite() { delete dir_; }

  static TempDir* dir_;
  static fs::path both_, standard_, chess960_;
};
TempDir* DbVariant::dir_ = nullptr;
fs::path DbVariant::both_, DbVariant::standard_, DbVariant::chess960_;

TEST_F(DbVariant, AStoreOfBothAnswersForEachVariantAsAStoreOfItAlone) {
  // Standard chess by default, at the start and after 1.e4.
  for (const std::string& fen :
       {std::string(), std::string("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")}) {
    const Json alone = explore(standard_, fen);
    EXPECT_GT(alone["games"].get<uint64_t>(), 0u);
    EXPECT_EQ(explore(both_, fen), alone) << fen;
    EXPECT_EQ(explore(both_, fen, {"--variant", "standard"}), alone) << fen;
  }
  // Chess960 when named, at the start positions of the sample's games (X-FEN and Shredder-FEN).
  const std::vector<std::string> starts = chess960_starts(12);
  ASSERT_EQ(starts.size(), 12u);
  for (const std::string& fen : starts) {
    const Json alone = explore(chess960_, fen);
    EXPECT_GT(alone["games"].get<uint64_t>(), 0u) << fen;
    EXPECT_EQ(explore(both_, fen, {"--variant", "chess960"}), alone) << fen;
  }
}

TEST_F(DbVariant, AStoreOfOneVariantAnswersWithItUnlessTheOtherIsNamed) {
  const std::string fen = chess960_starts(1).at(0);
  EXPECT_GT(explore(chess960_, fen)["games"].get<uint64_t>(), 0u);
  EXPECT_EQ(explore(chess960_, fen, {"--variant", "standard"})["games"], 0);
  EXPECT_EQ(explore(chess960_, fen, {"--variant", "any"}), explore(chess960_, fen));
  EXPECT_GT(explore(standard_, "")["games"].get<uint64_t>(), 0u);
  EXPECT_EQ(explore(standard_, "", {"--variant", "chess960"})["games"], 0);
}

// Every game of the sample is replayed: none is bad, none of another variant, and the default
// (standard) leaves them all out by their Variant tag.
TEST_F(DbVariant, EveryChess960GameOfTheSampleIsReplayed) {
  const CommandResult all = run_bookforge({"scan", kChess960.string(), "--variant", "chess960", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const Json scanned = Json::parse(all.out);
  EXPECT_EQ(scanned["games"], 400);
  EXPECT_EQ(scanned["accepted"], 400);
  EXPECT_EQ(scanned["bad"], 0);
  const CommandResult standard = run_bookforge({"scan", kChess960.string(), "--json"});
  ASSERT_EQ(standard.exit_code, 0) << standard.err;
  EXPECT_EQ(Json::parse(standard.out)["accepted"], 0);
}

}  // namespace
}  // namespace bookforge::test
