// open_store_for_build: the rules take the store's counting settings, and what the store
// cannot provide is refused.
#include "book/from_db.h"

#include "support/test_support.h"

namespace bookforge::store {
namespace {

using test::TempDir;

// A store with the given settings and sources; nothing in its tree.
std::string make_store(const TempDir& dir, const CountingSettings& settings,
                       const std::vector<CountingSettings>& sources) {
  const std::string path = dir / "t.sqlite";
  Result<Store> s = Store::create(path);
  EXPECT_TRUE(s.ok());
  EXPECT_TRUE(s->set_settings(settings).ok());
  for (size_t i = 0; i < sources.size(); ++i) {
    SourceRecord r;
    r.name = "file" + std::to_string(i) + ".pgn";
    r.games = 10 * (i + 1);
    r.settings = sources[i];
    EXPECT_TRUE(s->add_source(r).ok());
  }
  EXPECT_TRUE(s->close().ok());
  return path;
}

TEST(StoreForBuild, TheRulesCountTheWayTheStoreWasCounted) {
  TempDir dir;
  const CountingSettings counted{"min-elo=2000", 40, true};
  const std::string path = make_store(dir, counted, {counted, counted});
  book::SelectionRules rules;  // max-ply 60, repeats once per game
  Result<std::unique_ptr<StoreForBuild>> opened = open_store_for_build(path, FromDbRequest{}, rules);
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(rules.max_ply, 40);
  EXPECT_TRUE(rules.count_repeats);
  EXPECT_EQ((*opened)->games, 30u);
  EXPECT_EQ((*opened)->settings, counted);
  ASSERT_EQ((*opened)->warnings.size(), 1u);  // the preset counted repeats differently
  EXPECT_NE((*opened)->warnings[0].find("every time"), std::string::npos);

  // Explicit values equal to the store's are fine, and so are the store's own filters.
  book::SelectionRules same;
  same.max_ply = 40;
  same.count_repeats = true;
  Result<std::unique_ptr<StoreForBuild>> again =
      open_store_for_build(path, FromDbRequest{true, true, "min-elo=2000"}, same);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_TRUE((*again)->warnings.empty());
}

TEST(StoreForBuild, WhatTheStoreCannotProvideIsRefused) {
  TempDir dir;
  const CountingSettings counted{"none", 40, false};
  const std::string path = make_store(dir, counted, {counted});
  book::SelectionRules rules;
  Result<std::unique_ptr<StoreForBuild>> ply =
      open_store_for_build(path, FromDbRequest{true, false, ""}, rules);
  ASSERT_FALSE(ply.ok());
  EXPECT_NE(ply.error().message.find("--max-ply 60 needs the PGN files"), std::string::npos)
      << ply.error().message;

  book::SelectionRules repeats;
  repeats.max_ply = 40;
  repeats.count_repeats = true;
  Result<std::unique_ptr<StoreForBuild>> r =
      open_store_for_build(path, FromDbRequest{false, true, ""}, repeats);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--count-repeats"), std::string::npos);

  book::SelectionRules filtered;
  Result<std::unique_ptr<StoreForBuild>> f =
      open_store_for_build(path, FromDbRequest{false, false, "min-elo=2000"}, filtered);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().message.find("min-elo=2000"), std::string::npos);
}

TEST(StoreForBuild, SourcesForcedInWithOtherSettingsAreReported) {
  TempDir dir;
  const CountingSettings counted{"none", 40, false};
  const std::string path = make_store(dir, counted, {counted, CountingSettings{"none", 30, false}});
  book::SelectionRules rules;
  Result<std::unique_ptr<StoreForBuild>> opened = open_store_for_build(path, FromDbRequest{}, rules);
  ASSERT_TRUE(opened.ok());
  ASSERT_EQ((*opened)->warnings.size(), 1u);
  EXPECT_NE((*opened)->warnings[0].find("file1.pgn was added (with --force) using max-ply 30"),
            std::string::npos)
      << (*opened)->warnings[0];
}

TEST(StoreForBuild, AnEmptyStoreHasNothingToBuildFrom) {
  TempDir dir;
  const std::string path = dir / "t.sqlite";
  Result<Store> s = Store::create(path);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s->close().ok());
  book::SelectionRules rules;
  Result<std::unique_ptr<StoreForBuild>> opened = open_store_for_build(path, FromDbRequest{}, rules);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().message.find("empty"), std::string::npos);
}

}  // namespace
}  // namespace bookforge::store
