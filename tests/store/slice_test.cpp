// The store's slices (store/slice.h) and their blobs (store/slice_counts.h).
#include <gtest/gtest.h>

#include <vector>

#include "counts/entry_merge.h"
#include "store/slice.h"
#include "store/slice_counts.h"

namespace bookforge::store {
namespace {

using counts::TallyEntry;

TEST(Slice, BandsComeFromTheMeanOfBothElosAndUnratedWhenEitherIsMissing) {
  EXPECT_EQ(band_code(0, 2400), 0);
  EXPECT_EQ(band_code(2400, 0), 0);
  EXPECT_EQ(band_code_name(band_code(900, 950)), "below 1000");
  EXPECT_EQ(band_code_name(band_code(999, 1001)), "1000");  // mean exactly 1000
  EXPECT_EQ(band_code_name(band_code(999, 1000)), "below 1000");
  EXPECT_EQ(band_code_name(band_code(2100, 2299)), "2000");
  EXPECT_EQ(band_code_name(band_code(2100, 2300)), "2200");
  EXPECT_EQ(band_code_name(band_code(2499, 2500)), "2200");
  EXPECT_EQ(band_code_name(band_code(2700, 2900)), "2800");
  EXPECT_EQ(band_code_name(band_code(3200, 3100)), "2800");
}

TEST(Slice, MonthsComeFromTheDateAndAYearAloneIsKept) {
  EXPECT_EQ(month_code_of_date("2019.03.15"), month_code(2019, 3));
  EXPECT_EQ(month_code_of_date("1985.??.??"), month_code(1985, 0));
  EXPECT_EQ(month_code_of_date("1985"), month_code(1985, 0));
  EXPECT_EQ(month_code_of_date("2019.13.01"), month_code(2019, 0));
  EXPECT_EQ(month_code_of_date("????.??.??"), 0u);
  EXPECT_EQ(month_code_of_date(""), 0u);
  EXPECT_EQ(month_year(month_code(1985, 0)), 1985);
  EXPECT_EQ(month_year(0), std::nullopt);
}

TEST(Slice, FiltersSelectSpeedsBandsAndMonths) {
  Result<SliceFilter> f = parse_slice_filter("blitz,rapid", "2000,2200", "2019-01", "2023-12");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->describe(), "speeds=blitz,rapid; ratings=2000,2200; since=2019-01; until=2023-12");
  const int blitz = speed_code(pgn::Speed::kBlitz), bullet = speed_code(pgn::Speed::kBullet);
  const int b2000 = band_code(2000, 2100), b1800 = band_code(1800, 1900);
  EXPECT_TRUE(f->accepts(make_slice(month_code(2020, 6), blitz, b2000)));
  EXPECT_FALSE(f->accepts(make_slice(month_code(2020, 6), bullet, b2000)));
  EXPECT_FALSE(f->accepts(make_slice(month_code(2020, 6), blitz, b1800)));
  EXPECT_FALSE(f->accepts(make_slice(month_code(2018, 12), blitz, b2000)));
  EXPECT_TRUE(f->accepts(make_slice(month_code(2023, 12), blitz, b2000)));
  EXPECT_FALSE(f->accepts(make_slice(month_code(2024, 1), blitz, b2000)));
  EXPECT_FALSE(f->accepts(make_slice(0, blitz, b2000)));  // unknown date, with a month bound
  // A year without a month counts as its January.
  EXPECT_TRUE(f->accepts(make_slice(month_code(2019, 0), blitz, b2000)));
  Result<SliceFilter> from_june = parse_slice_filter("", "", "2019-06", "");
  EXPECT_FALSE(from_june->accepts(make_slice(month_code(2019, 0), blitz, b2000)));
  // Years as bounds: January to December.
  Result<SliceFilter> years = parse_slice_filter("", "unrated,0", "2019", "2019");
  EXPECT_TRUE(years->accepts(make_slice(month_code(2019, 12), 0, 0)));
  EXPECT_TRUE(years->accepts(make_slice(month_code(2019, 1), 0, band_code(500, 600))));
  EXPECT_FALSE(years->accepts(make_slice(month_code(2020, 1), 0, 0)));
  // No filter takes everything, unknown dates included.
  EXPECT_TRUE(SliceFilter{}.accepts(make_slice(0, 0, 0)));
}

TEST(Slice, BadFlagsAreNamed) {
  Result<SliceFilter> speed = parse_slice_filter("blitz,fast", "", "", "");
  ASSERT_FALSE(speed.ok());
  EXPECT_NE(speed.error().message.find("--speeds: unknown item 'fast'"), std::string::npos);
  Result<SliceFilter> band = parse_slice_filter("", "2100", "", "");
  ASSERT_FALSE(band.ok());
  EXPECT_NE(band.error().message.find("--ratings: unknown item '2100'"), std::string::npos);
  EXPECT_FALSE(parse_slice_filter("", "", "2019-13", "").ok());
  EXPECT_FALSE(parse_slice_filter("", "", "", "19-01").ok());
  // lichess's default lower bound, before any date the store knows: every known date.
  Result<SliceFilter> from_zero = parse_slice_filter("", "", "0000-01", "");
  ASSERT_TRUE(from_zero.ok());
  EXPECT_TRUE(from_zero->accepts(make_slice(month_code(kFirstYear, 0), 0, 0)));
  EXPECT_FALSE(parse_slice_filter("", "", "", "0999-12").ok());
  Result<SliceFilter> reversed = parse_slice_filter("", "", "2020-01", "2019-12");
  ASSERT_FALSE(reversed.ok());
  EXPECT_NE(reversed.error().message.find("comes after"), std::string::npos);
}

counts::TallyEntry counts(uint32_t slice, uint32_t white, uint32_t draws, uint32_t black,
                          uint16_t first_ply) {
  counts::TallyEntry e;
  e.key = 0x1234;
  e.move = 77;
  e.slice = slice;
  e.white_wins = white;
  e.draws = draws;
  e.black_wins = black;
  e.games = white + draws + black;
  e.rating_sum = 2000ull * e.games;
  e.rated_games = e.games;
  e.opponent_rating_sum = 1900ull * e.games;
  e.opponents_rated = e.games;
  e.first_ply = first_ply;
  return e;
}

TEST(SliceCounts, RowsGroupTheirSlicesAndSumThemBack) {
  const uint32_t may = make_slice(month_code(2016, 5), 2, 3), june = make_slice(month_code(2016, 6), 3, 3);
  counts::TallyEntry other = counts(may, 1, 0, 0, 9);
  other.move = 78;
  const std::vector<counts::TallyEntry> entries = {counts(may, 2, 1, 0, 12), counts(june, 0, 0, 4, 10),
                                                   other};
  counts::SpanStream<counts::TallyEntry> stream(entries);
  SlicedRows rows(stream);
  counts::TallyEntry total;
  ASSERT_TRUE(rows.next(total));
  EXPECT_EQ(total.games, 7u);
  EXPECT_EQ(total.first_ply, 10);
  EXPECT_EQ(total.slice, 0u);
  std::vector<counts::TallyEntry> back;
  ASSERT_TRUE(for_each_slice(rows.blob(), total, [&](const counts::TallyEntry& e) { back.push_back(e); }));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0], counts(may, 2, 1, 0, 12));
  EXPECT_EQ(back[1], counts(june, 0, 0, 4, 10));

  FilteredCounts only_june;
  ASSERT_TRUE(sum_slices(rows.blob(), total, *parse_slice_filter("", "", "2016-06", ""), only_june));
  EXPECT_EQ(only_june.counts.games, 4u);
  EXPECT_EQ(only_june.counts.black_wins, 4u);
  EXPECT_EQ(only_june.counts.first_ply, 10);
  EXPECT_EQ(only_june.first_month, month_code(2016, 6));
  FilteredCounts both;
  ASSERT_TRUE(sum_slices(rows.blob(), total, SliceFilter{}, both));
  counts::TallyEntry expected = total;
  EXPECT_EQ(both.counts, expected);
  EXPECT_EQ(both.first_month, month_code(2016, 5));
  EXPECT_EQ(both.last_month, month_code(2016, 6));

  // A row of one slice keeps only its number: its counts are the row's.
  ASSERT_TRUE(rows.next(total));
  EXPECT_EQ(rows.blob(), single_slice_blob(may));
  back.clear();
  ASSERT_TRUE(for_each_slice(rows.blob(), total, [&](const counts::TallyEntry& e) { back.push_back(e); }));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0], other);
  EXPECT_FALSE(rows.next(total));
  EXPECT_TRUE(rows.status().ok());
}

TEST(SliceCounts, ADamagedBlobIsSeen) {
  const counts::TallyEntry total = counts(5, 1, 0, 0, 3);
  std::string blob;
  uint32_t previous = 0;
  append_slice(blob, previous, counts(5, 1, 0, 0, 3));
  append_slice(blob, previous, counts(9, 1, 0, 0, 3));
  blob.pop_back();
  blob.back() = char(0x80);  // a varint that never ends
  FilteredCounts f;
  EXPECT_FALSE(sum_slices(blob, total, SliceFilter{}, f));
  EXPECT_FALSE(sum_slices("", total, SliceFilter{}, f));
}

}  // namespace
}  // namespace bookforge::store
