// Store::players_with_prefix: the player explorer's name suggestions, on a store made by
// store_add from a few games written here.
#include <gtest/gtest.h>

#include "store/add.h"
#include "store/store.h"
#include "support/test_support.h"

namespace bookforge::store {
namespace {

std::string game(const std::string& white, const std::string& black) {
  return "[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
}

class PlayerNames : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string pgn = (dir_ / "games.pgn").string();
    // Carlsen plays three games (once written in other case), Caruana two, Anand one;
    // "Car" with a byte past ASCII after it still starts with "car".
    test::write_file(pgn, game("Carlsen, Magnus", "Anand, V") + game("Caruana, F", "carlsen, magnus") +
                              game("Carlsen, Magnus", "Caruana, F") + game("Car\xc3\xa9", "Becker") +
                              game("Cb", "Ca"));
    StoreAddOptions options;
    options.db_path = (dir_ / "t.sqlite").string();
    options.pipeline.inputs = {pgn};
    options.pipeline.threads = 1;
    options.keep_duplicates = true;
    ASSERT_TRUE(store_add(options));
    Result<Store> opened = Store::open(options.db_path, false);
    ASSERT_TRUE(opened) << opened.error().message;
    store_.emplace(std::move(*opened));
  }

  std::vector<std::pair<std::string, uint64_t>> names(const std::string& prefix, int64_t limit = 10) {
    Result<std::vector<PlayerName>> found = store_->players_with_prefix(prefix, limit);
    EXPECT_TRUE(found) << found.error().message;
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const PlayerName& p : *found) out.emplace_back(p.name, p.games);
    return out;
  }

  test::TempDir dir_;
  std::optional<Store> store_;
};

TEST_F(PlayerNames, NamesStartingWithThePrefixAnyAsciiCaseMostGamesFirst) {
  const auto found = names("CAR");
  ASSERT_EQ(found.size(), 3u);
  // Both spellings of Carlsen are one player of three games, under one of its spellings.
  EXPECT_EQ(found[0].second, 3u);
  EXPECT_TRUE(found[0].first == "Carlsen, Magnus" || found[0].first == "carlsen, magnus") << found[0].first;
  EXPECT_EQ(found[1], (std::pair<std::string, uint64_t>("Caruana, F", 2)));
  EXPECT_EQ(found[2], (std::pair<std::string, uint64_t>("Car\xc3\xa9", 1)));
}

TEST_F(PlayerNames, ThePrefixIsMatchedWholeAndTheLimitCuts) {
  EXPECT_EQ(names("carl").size(), 1u);
  EXPECT_EQ(names("caru")[0].first, "Caruana, F");
  EXPECT_TRUE(names("Carlsen, Magnus!").empty());
  EXPECT_TRUE(names("x").empty());
  // "Ca" and "Cb" border the range of "ca": only "Ca" is in it; ties go by name.
  const auto ca = names("ca", 10);
  ASSERT_EQ(ca.size(), 4u);
  EXPECT_EQ(ca[2], (std::pair<std::string, uint64_t>("Ca", 1)));
  EXPECT_EQ(ca[3], (std::pair<std::string, uint64_t>("Car\xc3\xa9", 1)));
  EXPECT_EQ(names("ca", 2).size(), 2u);
}

}  // namespace
}  // namespace bookforge::store
