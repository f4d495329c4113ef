// `bookforge db novelty` (issue 29, item 4): where each game of a PGN file left the store's tree,
// on a store of four handmade games whose counts are known by hand. The counts against an
// independent count of real games: novelty_independent_count.py.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string game(const std::string& white, const std::string& date, const std::string& result,
                 const std::string& elos, const std::string& moves, const std::string& more_tags = "") {
  return "[Event \"Test\"]\n[Date \"" + date + "\"]\n[White \"" + white + "\"]\n[Black \"" + white +
         " Jr\"]\n[Result \"" + result + "\"]\n[WhiteElo \"" + elos + "\"]\n[BlackElo \"" + elos + "\"]\n" +
         more_tags + "\n" + moves + " " + result + "\n\n";
}

// The store: three games of 1.e4, one of 1.d4.
const std::string kStoreGames =
    game("G1", "2020.01.01", "1-0", "2500", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6") +
    game("G2", "2020.02.01", "1/2-1/2", "2400", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5") +
    game("G3", "2021.03.01", "0-1", "2300", "1. e4 c5 2. Nf3 d6") +
    game("G4", "2021.05.01", "1-0", "2200", "1. d4 d5 2. c4 e6");

// The walked games, one per case.
const std::string kWalkedGames =
    game("Ruy", "2024.01.01", "*", "2000", "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O") +  // leaves at 3...Nf6
    game("QGD", "2024.01.02", "1-0", "2000", "1. d4 d5 2. c4 e6") +                    // stays to its end
    game("Bad", "2024.01.03", "1-0", "2000", "1. e4 e5 2. Ke3 Nc6") +                  // illegal 2.Ke3
    game("English", "2024.01.04", "1-0", "2000", "1. c4 e5") +                         // leaves at once
    game("Set up", "2024.01.05", "*", "2000", "2. Nf3 Nc6 3. Bc4 Nf6",  // from 1.e4 e5: leaves at 3...Nf6
         "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]\n");

class NoveltyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_ / "store.pgn", kStoreGames);
    write_file(dir_ / "walked.pgn", kWalkedGames);
    CommandResult add = db_add_files(db_, {(dir_ / "store.pgn").string()});
    ASSERT_EQ(add.exit_code, 0) << add.err;
  }

  CommandResult novelty(std::vector<std::string> more, const std::string& input = "walked.pgn",
                        const std::string& stdin_data = "") {
    std::vector<std::string> args{"db", "novelty", "--db", db_.string(),
                                  input == "-" ? input : (dir_ / input).string()};
    args.insert(args.end(), more.begin(), more.end());
    return run_bookforge(args, stdin_data);
  }

  json novelty_json(std::vector<std::string> more = {}) {
    more.push_back("--json");
    CommandResult r = novelty(more);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }

  TempDir dir_;
  fs::path db_ = dir_ / "store.sqlite";
};

// [games, white, draws, black] of a path move, and the games of the position before it.
std::vector<uint64_t> counts(const json& move) {
  return {move["position_games"], move["games"], move["white"], move["draws"], move["black"]};
}

TEST_F(NoveltyTest, FindsTheFirstMoveNoStoredGamePlayedWithThePathCounts) {
  const json doc = novelty_json();
  ASSERT_EQ(doc["games"].size(), 4u) << doc.dump();  // the bad game is apart
  const json& ruy = doc["games"][0];
  EXPECT_EQ(ruy["white"], "Ruy");
  EXPECT_EQ(ruy["game"], 1);
  EXPECT_TRUE(ruy["left_tree"]);
  const json& path = ruy["path"];
  ASSERT_EQ(path.size(), 6u);
  // position games, move games, white, draws, black, counted by hand from kStoreGames.
  EXPECT_EQ(counts(path[0]), (std::vector<uint64_t>{4, 3, 1, 1, 1}));  // 1.e4
  EXPECT_EQ(counts(path[1]), (std::vector<uint64_t>{3, 2, 1, 1, 0}));  // 1...e5
  EXPECT_EQ(counts(path[2]), (std::vector<uint64_t>{2, 2, 1, 1, 0}));  // 2.Nf3
  EXPECT_EQ(counts(path[3]), (std::vector<uint64_t>{2, 2, 1, 1, 0}));  // 2...Nc6
  EXPECT_EQ(counts(path[4]), (std::vector<uint64_t>{2, 1, 1, 0, 0}));  // 3.Bb5
  EXPECT_EQ(counts(path[5]), (std::vector<uint64_t>{1, 0, 0, 0, 0}));  // 3...Nf6
  EXPECT_EQ(ruy["novelty"], path[5]);
  EXPECT_EQ(path[5]["san"], "Nf6");
  EXPECT_EQ(path[5]["uci"], "g8f6");
  EXPECT_EQ(path[5]["ply"], 6);
  EXPECT_EQ(path[5]["move_number"], 3);
  EXPECT_EQ(path[5]["side"], "black");
  // The games that reached the position before it: G1 alone.
  ASSERT_EQ(ruy["top_games"].size(), 1u);
  EXPECT_EQ(ruy["top_games"][0]["white"], "G1");

  const json& qgd = doc["games"][1];
  EXPECT_FALSE(qgd["left_tree"]);
  EXPECT_FALSE(qgd["reached_max_ply"]);
  EXPECT_TRUE(qgd["novelty"].is_null());
  EXPECT_EQ(qgd["path"].size(), 4u);
  EXPECT_EQ(counts(qgd["path"][3]), (std::vector<uint64_t>{1, 1, 1, 0, 0}));
  EXPECT_TRUE(qgd["top_games"].empty());

  const json& english = doc["games"][2];
  EXPECT_EQ(english["game"], 4);
  ASSERT_EQ(english["path"].size(), 1u);
  EXPECT_EQ(counts(english["novelty"]), (std::vector<uint64_t>{4, 0, 0, 0, 0}));
  EXPECT_EQ(english["top_games"].size(), 4u);         // every game reached the start position
  EXPECT_EQ(english["top_games"][0]["white"], "G1");  // the highest rated first
}

TEST_F(NoveltyTest, AGameFromASetUpPositionIsWalkedFromIt) {
  const json set_up = novelty_json()["games"][3];
  EXPECT_EQ(set_up["white"], "Set up");
  ASSERT_TRUE(set_up["left_tree"]);
  const json& path = set_up["path"];
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(path[0]["san"], "Nf3");
  EXPECT_EQ(path[0]["move_number"], 2);
  EXPECT_EQ(counts(path[2]), (std::vector<uint64_t>{2, 1, 0, 1, 0}));  // 3.Bc4: G2
  EXPECT_EQ(set_up["novelty"]["san"], "Nf6");
  EXPECT_EQ(set_up["novelty"]["ply"], 4);
}

TEST_F(NoveltyTest, MinGamesMovesTheNoveltyToTheFirstRarerMove) {
  const json doc = novelty_json({"--min-games", "2"});
  EXPECT_EQ(doc["min_games"], 2);
  const json& ruy = doc["games"][0];
  ASSERT_TRUE(ruy["left_tree"]);
  EXPECT_EQ(ruy["novelty"]["san"], "Bb5");  // one game played it
  EXPECT_EQ(counts(ruy["novelty"]), (std::vector<uint64_t>{2, 1, 1, 0, 0}));
  EXPECT_EQ(ruy["top_games"].size(), 2u);  // G1 and G2 reached the position before it
  const json& qgd = doc["games"][1];
  EXPECT_TRUE(qgd["left_tree"]);
  EXPECT_EQ(qgd["novelty"]["san"], "d4");
  EXPECT_EQ(qgd["novelty"]["ply"], 1);
}

TEST_F(NoveltyTest, SliceFlagsCountOnlyTheirGames) {
  // From 2021 on only G3 (1.e4 c5) and G4 (1.d4) count: 1...e5 is new.
  const json doc = novelty_json({"--since", "2021-01"});
  const json& ruy = doc["games"][0];
  ASSERT_TRUE(ruy["left_tree"]);
  EXPECT_EQ(ruy["novelty"]["san"], "e5");
  EXPECT_EQ(counts(ruy["path"][0]), (std::vector<uint64_t>{2, 1, 0, 0, 1}));
  EXPECT_EQ(counts(ruy["novelty"]), (std::vector<uint64_t>{1, 0, 0, 0, 0}));
  EXPECT_EQ(doc["filter"], "since=2021-01");
}

TEST_F(NoveltyTest, AGameAllInTheTreeUpToTheStoresMaxPlyIsSaidToBe) {
  const fs::path shallow = dir_ / "shallow.sqlite";
  ASSERT_EQ(db_add_files(shallow, {(dir_ / "store.pgn").string()}, {"--max-ply", "3"}).exit_code, 0);
  CommandResult r =
      run_bookforge({"db", "novelty", "--db", shallow.string(), (dir_ / "walked.pgn").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["max_ply"], 3);
  const json& ruy = doc["games"][0];
  EXPECT_FALSE(ruy["left_tree"]);
  EXPECT_TRUE(ruy["reached_max_ply"]);
  EXPECT_EQ(ruy["path"].size(), 3u);
}

TEST_F(NoveltyTest, ABadGameIsReportedWithItsFileAndNumber) {
  const json doc = novelty_json();
  ASSERT_EQ(doc["bad_games"].size(), 1u);
  EXPECT_EQ(doc["bad_games"][0]["game"], 3);
  EXPECT_EQ(doc["bad_games"][0]["file"], (dir_ / "walked.pgn").string());
  EXPECT_EQ(doc["bad_games"][0]["reason"], "illegal_move");

  CommandResult text = novelty({});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("walked.pgn:"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find(": game 3: move 2. Ke3"), std::string::npos) << text.err;
  EXPECT_NE(text.out.find("5 games: 3 left the tree, 1 stayed in it, 1 bad"), std::string::npos) << text.out;
}

TEST_F(NoveltyTest, TextShowsOneBlockPerGame) {
  CommandResult r = novelty({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("game 1  Ruy - Ruy Jr  (Test, 2024.01.01, *)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("left the tree at 3...Nf6 (ply 6): 1 game before it, no game played it"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("stayed in the tree to its last move (4 plies)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("left the tree at 1.c4 (ply 1): 4 games before it"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("top games before it"), std::string::npos) << r.out;
}

TEST_F(NoveltyTest, ReadsCompressedFilesAndStandardInput) {
  const std::string plain = novelty_json().dump();
  ASSERT_EQ(run_program({"gzip", "-k", (dir_ / "walked.pgn").string()}).exit_code, 0);
  CommandResult gz = novelty({"--json"}, "walked.pgn.gz");
  ASSERT_EQ(gz.exit_code, 0) << gz.err;
  // The same answer but for the file's name.
  json from_gz = json::parse(gz.out);
  for (json& g : from_gz["games"]) g["file"] = (dir_ / "walked.pgn").string();
  for (json& g : from_gz["bad_games"]) g["file"] = (dir_ / "walked.pgn").string();
  EXPECT_EQ(from_gz.dump(), plain);

  CommandResult in = novelty({"--json"}, "-", kWalkedGames);
  ASSERT_EQ(in.exit_code, 0) << in.err;
  const json from_stdin = json::parse(in.out);
  ASSERT_EQ(from_stdin["games"].size(), 4u);
  EXPECT_EQ(from_stdin["games"][0]["novelty"], json::parse(plain)["games"][0]["novelty"]);
}

TEST_F(NoveltyTest, RefusesAStoreThatIsNotThere) {
  CommandResult r = run_bookforge(
      {"db", "novelty", "--db", (dir_ / "none.sqlite").string(), (dir_ / "walked.pgn").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("none.sqlite"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bookforge::test
