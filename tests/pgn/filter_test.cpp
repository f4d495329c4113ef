// Game filters: each one on its own, the order they are tried in, the speed classes, and the
// stable text form.
#include "pgn/filter.h"

#include <gtest/gtest.h>

namespace bookforge::pgn {
namespace {

TagList tags_of(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  TagList tags;
  for (const auto& [name, value] : pairs) tags.add(name, TagValue(value));
  return tags;
}

TagPattern pattern(std::string tag, std::string re) { return TagPattern{tag, re, std::regex(re)}; }

TEST(PgnFilter, SpeedFromTimeControlUsesLichessThresholds) {
  struct Case {
    const char* tc;
    std::optional<Speed> speed;
  };
  const Case cases[] = {
      {"15+0", Speed::kUltraBullet},
      {"29", Speed::kUltraBullet},
      {"30+0", Speed::kBullet},
      {"60+1", Speed::kBullet},
      {"179", Speed::kBullet},
      {"180+0", Speed::kBlitz},
      {"120+2", Speed::kBlitz},
      {"300+3", Speed::kBlitz},
      {"479+0", Speed::kBlitz},
      {"480+0", Speed::kRapid},
      {"600+5", Speed::kRapid},
      {"900+10", Speed::kRapid},
      {"1499", Speed::kRapid},
      {"1500+0", Speed::kClassical},
      {"5400+30", Speed::kClassical},
      {"-", Speed::kCorrespondence},
      {"10.931+0.109", Speed::kUltraBullet},  // fishtest: 15.3 s
      {"40/7200:3600", Speed::kClassical},
      {" 300+0 ", Speed::kBlitz},
      {"?", std::nullopt},
      {"", std::nullopt},
      {"15 min. + 10 s. per move", std::nullopt},
      {"300+", std::nullopt},
      {"abc", std::nullopt},
  };
  for (const Case& c : cases) EXPECT_EQ(speed_from_time_control(c.tc), c.speed) << c.tc;
}

TEST(PgnFilter, SpeedNamesRoundTrip) {
  for (Speed s : {Speed::kUltraBullet, Speed::kBullet, Speed::kBlitz, Speed::kRapid, Speed::kClassical,
                  Speed::kCorrespondence})
    EXPECT_EQ(parse_speed(speed_name(s)), s);
  EXPECT_EQ(parse_speed("fast"), std::nullopt);
}

TEST(PgnFilter, EmptyFilterAcceptsEverything) {
  GameFilter f;
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.rejects(TagList(), Outcome::kUnknown), "");
  EXPECT_EQ(f.describe(), "none");
}

TEST(PgnFilter, EloFilters) {
  TagList game = tags_of({{"WhiteElo", "2400"}, {"BlackElo", "2200"}});
  TagList unrated = tags_of({{"WhiteElo", "2400"}, {"BlackElo", "?"}});
  auto rejects = [](GameFilter f, const TagList& t) { return std::string(f.rejects(t, Outcome::kDraw)); };
  GameFilter f;
  f.min_elo = 2200;
  EXPECT_EQ(rejects(f, game), "");
  f.min_elo = 2201;
  EXPECT_EQ(rejects(f, game), "min_elo");
  EXPECT_EQ(rejects(f, unrated), "min_elo");
  f = GameFilter();
  f.min_avg_elo = 2300;
  EXPECT_EQ(rejects(f, game), "");
  f.min_avg_elo = 2301;
  EXPECT_EQ(rejects(f, game), "min_avg_elo");
  f = GameFilter();
  f.max_elo_diff = 200;
  EXPECT_EQ(rejects(f, game), "");
  f.max_elo_diff = 199;
  EXPECT_EQ(rejects(f, game), "max_elo_diff");
  f = GameFilter();
  f.min_white_elo = 2400;
  f.min_black_elo = 2200;
  EXPECT_EQ(rejects(f, game), "");
  f.min_black_elo = 2250;
  EXPECT_EQ(rejects(f, game), "min_black_elo");
  f = GameFilter();
  f.min_white_elo = 2401;
  EXPECT_EQ(rejects(f, game), "min_white_elo");
  f = GameFilter();
  f.exclude_unrated = true;
  EXPECT_EQ(rejects(f, game), "");
  EXPECT_EQ(rejects(f, unrated), "exclude_unrated");
  EXPECT_EQ(rejects(f, TagList()), "exclude_unrated");
}

TEST(PgnFilter, Results) {
  GameFilter f;
  f.results = {"1-0", "0-1", "1/2-1/2"};
  EXPECT_EQ(f.rejects(TagList(), Outcome::kWhiteWins), "");
  EXPECT_EQ(f.rejects(TagList(), Outcome::kDraw), "");
  EXPECT_EQ(f.rejects(TagList(), Outcome::kUnknown), "results");
  f.results = {"*"};
  EXPECT_EQ(f.rejects(TagList(), Outcome::kUnknown), "");
  EXPECT_EQ(f.rejects(TagList(), Outcome::kBlackWins), "results");
}

TEST(PgnFilter, DatesComparePrefixesAndRejectUnknownDates) {
  GameFilter f;
  f.date_from = "2000.05";
  f.date_to = "2001";
  auto check = [&](std::string_view date) {
    return std::string(f.rejects(tags_of({{"Date", date}}), Outcome::kDraw));
  };
  EXPECT_EQ(check("2000.05.01"), "");
  EXPECT_EQ(check("2000.12.31"), "");
  EXPECT_EQ(check("2001.12.31"), "");
  EXPECT_EQ(check("2000.04.30"), "date");
  EXPECT_EQ(check("2002.01.01"), "date");
  EXPECT_EQ(check("2000.??.??"), "date");
  EXPECT_EQ(check("????.??.??"), "date");
  EXPECT_EQ(std::string(f.rejects(TagList(), Outcome::kDraw)), "date");
}

TEST(PgnFilter, SpeedUsesTheTimeControlTag) {
  GameFilter f;
  f.speeds = {Speed::kBlitz, Speed::kRapid};
  EXPECT_EQ(f.rejects(tags_of({{"TimeControl", "300+0"}}), Outcome::kDraw), "");
  EXPECT_EQ(f.rejects(tags_of({{"TimeControl", "60+0"}}), Outcome::kDraw), "speed");
  EXPECT_EQ(f.rejects(tags_of({{"TimeControl", "-"}}), Outcome::kDraw), "speed");
  EXPECT_EQ(f.rejects(TagList(), Outcome::kDraw), "speed");
}

TEST(PgnFilter, TagPatternsAndSetup) {
  TagList bot = tags_of({{"White", "Stockfish"}, {"WhiteTitle", "BOT"}, {"Black", "Magnus"}});
  TagList human = tags_of({{"White", "Hikaru"}, {"Black", "Magnus"}, {"FEN", "8/8/8/8/8/8/8/K6k w - - 0 1"}});
  GameFilter f;
  f.exclude_tags = {pattern("WhiteTitle", "BOT"), pattern("BlackTitle", "BOT")};
  EXPECT_EQ(f.rejects(bot, Outcome::kDraw), "exclude_tag");
  EXPECT_EQ(f.rejects(human, Outcome::kDraw), "");
  f = GameFilter();
  f.include_tags = {pattern("Black", "^Mag"), pattern("White", "ik")};
  EXPECT_EQ(f.rejects(human, Outcome::kDraw), "");
  EXPECT_EQ(f.rejects(bot, Outcome::kDraw), "tag");
  f = GameFilter();
  f.include_tags = {pattern("Annotator", ".*")};  // a missing tag never matches
  EXPECT_EQ(f.rejects(human, Outcome::kDraw), "tag");
  f = GameFilter();
  f.no_setup = true;
  EXPECT_EQ(f.rejects(human, Outcome::kDraw), "no_setup");
  EXPECT_EQ(f.rejects(bot, Outcome::kDraw), "");
  EXPECT_EQ(f.rejects(tags_of({{"FEN", " "}}), Outcome::kDraw), "");
}

TEST(PgnFilter, TagPatternsSeeDecodedValues) {
  GameFilter f;
  f.include_tags = {pattern("White", "^O\"Neill$")};
  EXPECT_EQ(f.rejects(tags_of({{"White", "O\\\"Neill"}}), Outcome::kDraw), "");
}

TEST(PgnFilter, TheFirstFailingFilterIsNamed) {
  GameFilter f;
  f.min_elo = 3000;
  f.results = {"1-0"};
  f.no_setup = true;
  EXPECT_EQ(f.rejects(tags_of({{"FEN", "x"}}), Outcome::kDraw), "min_elo");
  f.min_elo = 0;
  EXPECT_EQ(f.rejects(tags_of({{"FEN", "x"}}), Outcome::kDraw), "results");
}

TEST(PgnFilter, MinPlies) {
  GameFilter f;
  EXPECT_FALSE(f.rejects_length(0));
  f.min_plies = 10;
  EXPECT_TRUE(f.rejects_length(9));
  EXPECT_FALSE(f.rejects_length(10));
}

TEST(PgnFilter, DescribeIsStableAndComplete) {
  GameFilter a;
  a.min_elo = 2000;
  a.results = {"0-1", "1-0"};
  a.speeds = {Speed::kRapid, Speed::kBlitz};
  a.exclude_tags = {pattern("WhiteTitle", "BOT")};
  a.min_plies = 10;
  GameFilter b = a;
  b.results = {"1-0", "0-1", "1-0"};
  b.speeds = {Speed::kBlitz, Speed::kRapid};
  EXPECT_EQ(a.describe(), b.describe());
  EXPECT_EQ(a.describe(),
            "min-elo=2000; results=0-1,1-0; speed=blitz,rapid; exclude-tag=WhiteTitle=BOT; min-plies=10");
  b.min_elo = 2001;
  EXPECT_NE(a.describe(), b.describe());
  EXPECT_FALSE(a.empty());
}

TEST(PgnTagValue, DecodeAndNumbers) {
  EXPECT_EQ(TagValue("a\\\"b\\\\c\\x").decode(), "a\"b\\c\\x");
  EXPECT_EQ(TagValue("Fran\xe7ois").decode(), "Fran\u00e7ois");    // Latin-1
  EXPECT_EQ(TagValue("Fran\u00e7ois").decode(), "Fran\u00e7ois");  // already UTF-8
  // Only plain ASCII without escapes is its own decoding.
  EXPECT_TRUE(TagValue("Carlsen, Magnus").decodes_to_raw());
  EXPECT_TRUE(TagValue("").decodes_to_raw());
  EXPECT_FALSE(TagValue("O\\\"Kelly").decodes_to_raw());
  EXPECT_FALSE(TagValue("Fran\xe7ois").decodes_to_raw());
  EXPECT_FALSE(TagValue("Fran\u00e7ois").decodes_to_raw());
  EXPECT_EQ(TagValue("2450").to_int(), 2450);
  EXPECT_EQ(TagValue(" 2450 ").to_int(), 2450);
  EXPECT_EQ(TagValue("?").to_int(), std::nullopt);
  EXPECT_EQ(TagValue("").to_int(), std::nullopt);
  EXPECT_EQ(TagValue("-").to_int(), std::nullopt);
  EXPECT_EQ(TagValue("12a").to_int(), std::nullopt);
  EXPECT_EQ(TagValue("99999999999").to_int(), std::nullopt);
}

TEST(PgnTagValue, TagListFindsKnownAndOtherTagsFirstWins) {
  TagList t =
      tags_of({{"White", "a"}, {"WhiteElo", "1"}, {"WhiteElo", "2"}, {"Custom", "x"}, {"Custom", "y"}});
  EXPECT_EQ(t.find("WhiteElo")->raw(), "1");
  EXPECT_EQ(t.find("Custom")->raw(), "x");
  EXPECT_FALSE(t.find("BlackElo"));
  EXPECT_FALSE(t.find("Nothing"));
  t.clear();
  EXPECT_FALSE(t.find("WhiteElo"));
}

}  // namespace
}  // namespace bookforge::pgn
