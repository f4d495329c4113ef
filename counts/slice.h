// The slices of the store's counts. Every game falls in exactly one slice, made of
//
//   its speed        from TimeControl, by the same rule as --speed (pgn/filter.h):
//                    ultrabullet, bullet, blitz, rapid, classical, correspondence, or unknown
//                    when the tag is missing or unreadable;
//   its rating band  from the mean of the two players' Elos, when both have one: below 1000,
//                    then bands starting at 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500 and
//                    2800 (the lichess explorer's); a game where either Elo is missing is
//                    "unrated";
//   its month        from UTCDate when the game has one (lichess writes both; UTCDate is the
//                    exact one), else from Date. A date with a year but no month ("1985.??.??")
//                    keeps its year; a date without a year is unknown.
//
// The store keeps every (position, move)'s counts per slice (store/slice_counts.h), so a
// query can add up any set of speeds, bands and months without reading PGN again.
//
// and its variant: standard chess or Chess960 (pgn::Variant, from the Variant tag), so that a
// store fed with both (db add --variant any) answers for each apart, as lichess's explorer does.
//
// A slice is one 32-bit number: month code << 8 | variant << 7 | speed code << 4 | band code,
// with
//   month code  0 for an unknown date (or one before kFirstYear), else
//               (year - kFirstYear + 1) * 13 + month (month 0 when unknown, 1..12);
//   speed code  0 unknown, 1 + pgn::Speed;
//   band code   0 unrated, 1 + the band's index in kBandFloors.
// Slices therefore sort by month first, which keeps a row's slices in date order. (Counting
// years from kFirstYear keeps a slice of our time within 3 varint bytes in the store.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "pgn/filter.h"
#include "pgn/game.h"

namespace bookforge::counts {

// The lowest mean Elo of each rating band (the first band is everything below 1000).
inline constexpr int kBandFloors[] = {0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500, 2800};
inline constexpr int kBandCount = int(std::size(kBandFloors));

inline constexpr int kSpeedCodes = 7;              // unknown + the six pgn::Speed classes
inline constexpr int kBandCodes = kBandCount + 1;  // unrated + the bands

constexpr uint32_t make_slice(uint32_t month_code, int speed_code, int band_code,
                              pgn::Variant variant = pgn::Variant::kStandard) {
  return month_code << 8 | uint32_t(variant) << 7 | uint32_t(speed_code) << 4 | uint32_t(band_code);
}
constexpr uint32_t slice_month(uint32_t slice) { return slice >> 8; }
constexpr pgn::Variant slice_variant(uint32_t slice) { return pgn::Variant(slice >> 7 & 1); }
constexpr int slice_speed(uint32_t slice) { return int(slice >> 4 & 7); }
constexpr int slice_band(uint32_t slice) { return int(slice & 15); }

inline constexpr int kFirstYear = 1400;  // the oldest recorded games are from the 15th century

// The code of a month (0 .. 12, 0 when unknown) of a year; 0 (unknown) before kFirstYear.
constexpr uint32_t month_code(int year, int month) {
  return year < kFirstYear ? 0 : uint32_t(year - kFirstYear + 1) * 13 + uint32_t(month);
}
// The year of a known month code (nullopt for an unknown date).
constexpr std::optional<int> month_year(uint32_t code) {
  return code == 0 ? std::nullopt : std::optional<int>(int(code / 13) - 1 + kFirstYear);
}
// The month (0 .. 12) of a month code.
constexpr int month_of(uint32_t code) { return int(code % 13); }

// The parts of a slice, from a game's values.
int speed_code(std::optional<pgn::Speed> speed);
int band_code(int white_elo, int black_elo);         // 0 when either is 0 (unknown)
uint32_t month_code_of_date(std::string_view date);  // "YYYY.MM.DD"; 0 when the year is unknown

// The slice of a replayed game (its tags and Elos).
uint32_t slice_of_game(const pgn::ReplayedGame& game);

// Names, for flags and output: "blitz", "unknown"; "2000", "below 1000", "unrated".
std::string speed_code_name(int code);
std::string band_code_name(int code);

// Which slices a query adds up. Empty sets mean every speed, every band; no month bound
// means every date, unknown ones included. With a month bound, games of unknown date are left
// out, and a game whose date has only a year counts as January of that year.
struct SliceFilter {
  uint32_t speeds = 0;  // bit per speed code
  uint32_t bands = 0;   // bit per band code
  uint32_t since = 0;   // month code of the first month kept (month 1..12); 0 = no bound
  uint32_t until = 0;   // month code of the last month kept; 0 = no bound
  // The variants kept; every one by default. Queries of a store that holds both ask for one
  // (query_variants below).
  pgn::VariantSet variants = pgn::kAnyVariant;

  bool empty() const {
    return speeds == 0 && bands == 0 && since == 0 && until == 0 && variants == pgn::kAnyVariant;
  }
  bool accepts(uint32_t slice) const;
  // "speeds=blitz,rapid; ratings=2000,2200; since=2019-01; until=2023-12", or "none".
  std::string describe() const;
};

// The variants a query answers with, for the variants it asks for (nullopt: it names none)
// from a store fed with `held` (the --variant its games were added with,
// pgn::GameFilter::variants): those named, else what the store holds alone, else (a store of
// both) standard chess.
pgn::VariantSet answered_variants(std::optional<pgn::VariantSet> asked, pgn::VariantSet held);
// The variants its filter keeps (SliceFilter::variants): every one when the answer is all the
// store holds, which needs no filter.
pgn::VariantSet query_variants(std::optional<pgn::VariantSet> asked, pgn::VariantSet held);

// The filter from the flags' text: speeds "blitz,rapid" (names of pgn/filter.h and "unknown"),
// ratings "2000,2200" (band floors, "0" for below 1000, "unrated"), months "2019-01" or "2019"
// (since: January, until: December). An empty text leaves that part open; an error names the
// flag and the bad item.
Result<SliceFilter> parse_slice_filter(std::string_view speeds, std::string_view ratings,
                                       std::string_view since, std::string_view until);

}  // namespace bookforge::counts
