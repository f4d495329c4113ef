// Store::fingerprints_between: the games a short id's range names (store/game_record.h), read as
// ranges of the games' key, also across 2^63, where the signed key order wraps.
#include <gtest/gtest.h>

#include <algorithm>

#include "store/add.h"
#include "store/store.h"
#include "support/test_support.h"

namespace bookforge::store {
namespace {

TEST(FingerprintsBetween, RangesOfTheGamesKeyInUnsignedOrder) {
  test::TempDir dir;
  std::string pgn;
  const char* lines[] = {"1. e4 e5", "1. d4 d5", "1. c4 e5", "1. Nf3 d5",
                         "1. g3 g6", "1. b3 e5", "1. f4 d5", "1. e3 e6"};
  for (const char* line : lines)
    pgn += "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n" + std::string(line) + " 1-0\n\n";
  test::write_file(dir / "g.pgn", pgn);
  StoreAddOptions options;
  options.db_path = (dir / "t.sqlite").string();
  options.pipeline.inputs = {(dir / "g.pgn").string()};
  options.pipeline.threads = 1;
  ASSERT_TRUE(store_add(options));
  Result<Store> store = Store::open(options.db_path, false);
  ASSERT_TRUE(store) << store.error().message;

  std::vector<uint64_t> all;
  ASSERT_TRUE(store->for_each_game_fingerprint([&](uint64_t f) { all.push_back(f); }));
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), std::size(lines));
  // Eight random fingerprints have both top bits with odds 127 in 128: the whole range crosses 2^63.
  Result<std::vector<uint64_t>> whole = store->fingerprints_between(0, ~uint64_t(0));
  ASSERT_TRUE(whole) << whole.error().message;
  EXPECT_EQ(*whole, all);
  for (uint64_t f : all) {
    Result<std::vector<uint64_t>> one = store->fingerprints_between(f, f);
    ASSERT_TRUE(one);
    EXPECT_EQ(*one, std::vector<uint64_t>{f});
  }
  Result<std::vector<uint64_t>> upper = store->fingerprints_between(uint64_t(1) << 63, ~uint64_t(0));
  ASSERT_TRUE(upper);
  EXPECT_EQ(*upper,
            std::vector<uint64_t>(std::lower_bound(all.begin(), all.end(), uint64_t(1) << 63), all.end()));
  Result<std::vector<uint64_t>> none = store->fingerprints_between(5, 4);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace bookforge::store
