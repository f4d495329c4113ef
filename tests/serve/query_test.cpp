// Reading the API's parameters: the position (fen, play), the explorer's counts and filters,
// the engine's bounds. Every refusal names the parameter, so a 400 tells the client what to fix.
#include <gtest/gtest.h>

#include "chess/san.h"
#include "serve/engine_slot.h"
#include "serve/explorer_request.h"
#include "serve/position_query.h"

namespace bookforge::serve {
namespace {

bool mentions(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(PositionQuery, NoParametersIsTheStartPosition) {
  Result<QueriedPosition> position = position_from_query({});
  ASSERT_TRUE(position) << position.error().message;
  EXPECT_EQ(position->board.fen(), std::string(chess::kStartFen));
  EXPECT_TRUE(position->line.empty());
  EXPECT_TRUE(position->history.empty());
  EXPECT_FALSE(position->last);
}

TEST(PositionQuery, PlaysCommaSeparatedUciMovesFromTheFen) {
  Result<QueriedPosition> position = position_from_query({{"play", "e2e4,c7c5,g1f3"}});
  ASSERT_TRUE(position) << position.error().message;
  EXPECT_EQ(position->board.fen(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  ASSERT_EQ(position->line.size(), 3u);
  EXPECT_EQ(chess::move_to_uci(position->line[1]), "c7c5");
  ASSERT_EQ(position->history.size(), 3u);
  EXPECT_EQ(position->history[0], chess::Board().key());
  ASSERT_TRUE(position->last);
  EXPECT_EQ(chess::move_to_uci(position->last->move), "g1f3");
  EXPECT_EQ(position->last->before.key(), position->history[2]);

  const std::string fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
  Result<QueriedPosition> promoted = position_from_query({{"fen", fen}, {"play", "a7a8n"}});
  ASSERT_TRUE(promoted) << promoted.error().message;
  EXPECT_EQ(promoted->start.fen(), fen);
  EXPECT_EQ(promoted->board.fen(), "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

TEST(PositionQuery, AFenMayHaveUnderscoresForSpacesAsOnLichess) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  Result<QueriedPosition> position =
      position_from_query({{"fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_-_0_1"}});
  ASSERT_TRUE(position) << position.error().message;
  EXPECT_EQ(position->board.fen(), fen);
}

TEST(PositionQuery, ABadFenNamesTheParameter) {
  Result<QueriedPosition> position = position_from_query({{"fen", "rnbqkbnr/pppppppp w"}});
  ASSERT_FALSE(position);
  EXPECT_TRUE(mentions(position.error().message, "fen: ")) << position.error().message;
}

TEST(PositionQuery, AnIllegalMoveNamesTheParameterAndTheMoveNumber) {
  for (const char* play : {"e2e4,e7e9", "e2e4,e2e4", "e2e4,,e7e5", "e2e4,", "e2e4, e7e5", "e2e4,E7E5"}) {
    Result<QueriedPosition> position = position_from_query({{"play", play}});
    ASSERT_FALSE(position) << play;
    EXPECT_TRUE(mentions(position.error().message, "play: move 2 ")) << position.error().message;
  }
  Result<QueriedPosition> san = position_from_query({{"play", "e4"}});
  ASSERT_FALSE(san);
  EXPECT_TRUE(mentions(san.error().message, "play: move 1 \"e4\"")) << san.error().message;
}

TEST(PositionQuery, AQuotedValueIsCut) {
  Result<QueriedPosition> position = position_from_query({{"play", std::string(5000, 'x')}});
  ASSERT_FALSE(position);
  EXPECT_LT(position.error().message.size(), 200u);
}

// Each parameter with its value alone is refused, with a message that starts with its name.
void expect_each_refused_naming_it(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [name, value] : cases) {
    Result<ExplorerRequest> bad = explorer_request_from_query({{name, value}});
    ASSERT_FALSE(bad) << name << "=" << value;
    EXPECT_TRUE(mentions(bad.error().message, name + ": ")) << bad.error().message;
  }
}

TEST(ExplorerRequest, DefaultsAreLichesss) {
  Result<ExplorerRequest> request = explorer_request_from_query({});
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->max_moves, 12);
  EXPECT_TRUE(request->filter.empty());
}

TEST(ExplorerRequest, CountsAreCheckedWholeNumbers) {
  Result<ExplorerRequest> request = explorer_request_from_query({{"moves", "3"}, {"topGames", "0"}});
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->max_moves, 3);
  expect_each_refused_naming_it({{"moves", "abc"},
                                 {"moves", "-1"},
                                 {"moves", "3x"},
                                 {"moves", "99999999999999999999"},
                                 {"topGames", "1.5"},
                                 {"recentGames", "+4"}});
}

TEST(ExplorerRequest, LargeCountsAreCutAsLichessTakesAnyCount) {
  Result<ExplorerRequest> request =
      explorer_request_from_query({{"moves", "99999999999"}, {"topGames", "1000"}, {"recentGames", "101"}});
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->max_moves, 1000);
  EXPECT_EQ(request->top_games, 100);
  EXPECT_EQ(request->recent_games, 100);
}

bool same_filter(const counts::SliceFilter& a, const counts::SliceFilter& b) {
  return a.speeds == b.speeds && a.bands == b.bands && a.since == b.since && a.until == b.until;
}

// The filter the command line's flags would give (one parser for both).
counts::SliceFilter flags_filter(std::string_view speeds, std::string_view ratings, std::string_view since,
                                 std::string_view until) {
  Result<counts::SliceFilter> filter = counts::parse_slice_filter(speeds, ratings, since, until);
  EXPECT_TRUE(filter) << filter.error().message;
  return filter ? *filter : counts::SliceFilter{};
}

TEST(ExplorerRequest, LichesssFiltersBecomeTheStoresFilter) {
  Result<ExplorerRequest> request =
      explorer_request_from_query({{"speeds", "ultraBullet,blitz,correspondence"},
                                   {"ratings", "0,2200"},
                                   {"since", "2015-01"},
                                   {"until", "2020"},
                                   {"variant", "standard"}});
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_TRUE(same_filter(request->filter,
                          flags_filter("ultrabullet,blitz,correspondence", "0,2200", "2015-01", "2020")))
      << request->filter.describe();
  EXPECT_EQ(request->filter.describe(),
            "speeds=ultrabullet,blitz,correspondence; ratings=below 1000,2200; since=2015-01; until=2020-12");
}

TEST(ExplorerRequest, RatingsAreLichesssGroupsHoldingThem) {
  // lichess reads a number as the group it falls in, and its 2500 group holds everything above.
  for (const auto& [ratings, bands] :
       std::vector<std::pair<std::string, std::string>>{{"1500", "1400"},
                                                        {"999", "0"},
                                                        {"2499", "2200"},
                                                        {"2500", "2500,2800"},
                                                        {"1000,2600", "1000,2500,2800"}}) {
    Result<ExplorerRequest> request =
        explorer_request_from_query({{"ratings", ratings}}, ExplorerPath::kLichess);
    ASSERT_TRUE(request) << ratings << ": " << request.error().message;
    EXPECT_TRUE(same_filter(request->filter, flags_filter("", bands, "", ""))) << ratings;
  }
  // Our own path keeps db explore's bands, which the page's filters name.
  Result<ExplorerRequest> own = explorer_request_from_query({{"ratings", "2500"}});
  ASSERT_TRUE(own) << own.error().message;
  EXPECT_TRUE(same_filter(own->filter, flags_filter("", "2500", "", "")));
}

TEST(ExplorerRequest, VariantsAreLichesssNamesOfStandardChessAndChess960) {
  for (const char* variant : {"standard", "chess", "fromPosition", "From Position"}) {
    Result<ExplorerRequest> request = explorer_request_from_query({{"variant", variant}});
    ASSERT_TRUE(request) << variant << ": " << request.error().message;
    EXPECT_EQ(request->variant, pgn::kStandardOnly) << variant;
  }
  for (const char* variant : {"chess960", "Chess960"}) {
    Result<ExplorerRequest> request = explorer_request_from_query({{"variant", variant}});
    ASSERT_TRUE(request) << variant << ": " << request.error().message;
    EXPECT_EQ(request->variant, pgn::kChess960Only) << variant;
  }
  EXPECT_EQ(explorer_request_from_query({})->variant, std::nullopt);
  for (const char* variant : {"crazyhouse", "atomic", "960"})
    EXPECT_FALSE(explorer_request_from_query({{"variant", variant}})) << variant;
}

// A store of one variant answers with it unless the other is named; one of both, with
// standard chess unless Chess960 is named.
TEST(ExplorerRequest, TheVariantsQueriedDependOnWhatTheStoreHolds) {
  using pgn::kAnyVariant, pgn::kChess960Only, pgn::kStandardOnly;
  EXPECT_EQ(counts::query_variants(std::nullopt, kStandardOnly), kAnyVariant);
  EXPECT_EQ(counts::query_variants(kStandardOnly, kStandardOnly), kAnyVariant);
  EXPECT_EQ(counts::query_variants(kChess960Only, kStandardOnly), kChess960Only);
  EXPECT_EQ(counts::query_variants(std::nullopt, kChess960Only), kAnyVariant);
  EXPECT_EQ(counts::query_variants(kStandardOnly, kChess960Only), kStandardOnly);
  EXPECT_EQ(counts::query_variants(std::nullopt, kAnyVariant), kStandardOnly);
  EXPECT_EQ(counts::query_variants(kChess960Only, kAnyVariant), kChess960Only);
  EXPECT_EQ(counts::query_variants(kAnyVariant, kAnyVariant), kAnyVariant);
  counts::SliceFilter f;
  f.variants = kChess960Only;
  EXPECT_TRUE(f.accepts(counts::make_slice(0, 3, 2, pgn::Variant::kChess960)));
  EXPECT_FALSE(f.accepts(counts::make_slice(0, 3, 2)));
  EXPECT_EQ(counts::slice_speed(counts::make_slice(5, 6, 10, pgn::Variant::kChess960)), 6);
  EXPECT_EQ(counts::slice_band(counts::make_slice(5, 6, 10, pgn::Variant::kChess960)), 10);
}

TEST(ExplorerRequest, SinceAfterUntilSelectsNothingAsOnLichess) {
  Result<ExplorerRequest> reversed =
      explorer_request_from_query({{"since", "2020-02"}, {"until", "2019/12"}});
  ASSERT_TRUE(reversed) << reversed.error().message;
  for (uint32_t month = counts::month_code(2018, 1); month < counts::month_code(2022, 1); ++month)
    EXPECT_FALSE(reversed->filter.accepts(counts::make_slice(month, 0, 0))) << month;
}

TEST(ExplorerRequest, MastersBoundsAreYearsAsOnLichess) {
  Result<ExplorerRequest> years =
      explorer_request_from_query({{"since", "1990"}, {"until", "1999"}}, ExplorerPath::kMasters);
  ASSERT_TRUE(years) << years.error().message;
  EXPECT_TRUE(same_filter(years->filter, flags_filter("", "", "1990", "1999")));
  Result<ExplorerRequest> month = explorer_request_from_query({{"since", "1990-05"}}, ExplorerPath::kMasters);
  ASSERT_FALSE(month);
  EXPECT_TRUE(mentions(month.error().message, "since: ")) << month.error().message;
  EXPECT_TRUE(explorer_request_from_query({{"since", "1990-05"}}, ExplorerPath::kLichess));
}

TEST(ExplorerRequest, HistoryTakesLichesssSpellings) {
  for (const char* value : {"true", "false", "1", "0", "on", "off", "True", "yes"})
    EXPECT_TRUE(explorer_request_from_query({{"history", value}})) << value;
}

TEST(ExplorerRequest, OurOwnSpellingsAndClassesAreTakenToo) {
  Result<ExplorerRequest> request =
      explorer_request_from_query({{"speeds", "ultrabullet,unknown"}, {"ratings", "2800,unrated"}});
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_TRUE(same_filter(request->filter, flags_filter("ultrabullet,unknown", "2800,unrated", "", "")))
      << request->filter.describe();
}

TEST(ExplorerRequest, BadFiltersAreRefusedNamingTheParameterAndTheValue) {
  expect_each_refused_naming_it({{"speeds", "blitz,fast"},
                                 {"speeds", "UltraBullet"},
                                 {"ratings", "high"},
                                 {"ratings", "-400"},
                                 {"ratings", "2300"},
                                 {"since", "2015-13"},
                                 {"until", "15-01"},
                                 {"variant", "atomic"},
                                 {"variant", "shogi"},
                                 {"history", "maybe"}});
  Result<ExplorerRequest> fast = explorer_request_from_query({{"speeds", "blitz,fast"}});
  ASSERT_FALSE(fast);
  EXPECT_TRUE(mentions(fast.error().message, "'fast'")) << fast.error().message;
  EXPECT_FALSE(mentions(fast.error().message, "--")) << fast.error().message;
}

TEST(EngineRequest, DepthAndTimeAreBounded) {
  Result<EngineRequest> request = engine_request_from_query({});
  ASSERT_TRUE(request);
  EXPECT_EQ(request->depth, kDefaultEngineDepth);
  EXPECT_EQ(request->movetime_ms, kDefaultEngineMovetimeMs);
  EXPECT_FALSE(engine_request_from_query({{"depth", "31"}}));
  EXPECT_FALSE(engine_request_from_query({{"depth", "0"}}));
  EXPECT_FALSE(engine_request_from_query({{"movetime", "5001"}}));
  Result<EngineRequest> bounded = engine_request_from_query({{"depth", "30"}, {"movetime", "5000"}});
  ASSERT_TRUE(bounded);
  EXPECT_EQ(bounded->depth, 30);
  EXPECT_EQ(bounded->movetime_ms, 5000);
}

TEST(EngineRequest, TheLimitGivenRulesUpToTheOthersMaximum) {
  // depth=30 alone is not cut off by the default movetime of one second.
  Result<EngineRequest> deep = engine_request_from_query({{"depth", "30"}});
  ASSERT_TRUE(deep);
  EXPECT_EQ(deep->depth, 30);
  EXPECT_EQ(deep->movetime_ms, kMaxEngineMovetimeMs);
  Result<EngineRequest> long_search = engine_request_from_query({{"movetime", "4000"}});
  ASSERT_TRUE(long_search);
  EXPECT_EQ(long_search->depth, kMaxEngineDepth);
  EXPECT_EQ(long_search->movetime_ms, 4000);
  Result<EngineRequest> both = engine_request_from_query({{"depth", "20"}, {"movetime", "300"}});
  ASSERT_TRUE(both);
  EXPECT_EQ(both->depth, 20);
  EXPECT_EQ(both->movetime_ms, 300);
}

}  // namespace
}  // namespace bookforge::serve
