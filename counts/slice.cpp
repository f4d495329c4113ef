#include "counts/slice.h"

#include <charconv>
#include <cstdio>
#include <tuple>

#include "pgn/tag_value.h"

namespace bookforge::counts {
namespace {

std::optional<int> digits(std::string_view text) {
  int value = 0;
  if (text.empty()) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// A month code as a bound: "2019-01" or "2019" (the year's first or last month). A lower
// bound before kFirstYear ("0000-01", lichess's default) is kFirstYear's January: no known
// date is older. An upper bound before it is refused (it would keep nothing).
std::optional<uint32_t> parse_month(std::string_view text, bool last) {
  std::optional<int> year = digits(text.substr(0, 4));
  if (!year || text.size() < 4) return std::nullopt;
  int month = last ? 12 : 1;
  if (text.size() != 4) {
    if (text.size() != 7 || text[4] != '-') return std::nullopt;
    std::optional<int> m = digits(text.substr(5));
    if (!m || *m < 1 || *m > 12) return std::nullopt;
    month = *m;
  }
  if (*year < kFirstYear) {
    if (last) return std::nullopt;
    return month_code(kFirstYear, 1);
  }
  return month_code(*year, month);
}

std::string month_text(uint32_t code) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d", month_year(code).value_or(0), month_of(code));
  return text;
}

// The items of a comma-separated list, each passed to `add`, which says whether it knew it.
template <class F>
Status each_item(std::string_view list, std::string_view flag, std::string_view known, F add) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (!add(item))
      return Error{std::string(flag) + ": unknown item '" + std::string(item) + "' (" + std::string(known) +
                   ")"};
  }
  return ok_status();
}

}  // namespace

int speed_code(std::optional<pgn::Speed> speed) { return speed ? 1 + int(*speed) : 0; }

int band_code(int white_elo, int black_elo) {
  if (white_elo <= 0 || black_elo <= 0) return 0;
  const int sum = white_elo + black_elo;  // the mean, doubled: no rounding
  int band = 0;
  for (int i = 0; i < kBandCount; ++i)
    if (sum >= 2 * kBandFloors[i]) band = i;
  return 1 + band;
}

uint32_t month_code_of_date(std::string_view date) {
  if (date.size() < 4) return 0;
  std::optional<int> year = digits(date.substr(0, 4));
  if (!year || *year < 1) return 0;
  int month = 0;
  if (date.size() >= 7 && date[4] == '.')
    if (std::optional<int> m = digits(date.substr(5, 2)); m && *m >= 1 && *m <= 12) month = *m;
  return month_code(*year, month);
}

uint32_t slice_of_game(const pgn::ReplayedGame& game) {
  uint32_t month = 0;
  int speed = 0;
  if (game.tags) {
    std::optional<pgn::TagValue> date = game.tags->find("UTCDate");
    if (!date) date = game.tags->find("Date");
    if (date) month = month_code_of_date(date->raw());
    if (std::optional<pgn::TagValue> tc = game.tags->find("TimeControl"))
      speed = speed_code(pgn::speed_from_time_control(tc->raw()));
  }
  return make_slice(month, speed, band_code(game.white_elo, game.black_elo), game.variant);
}

std::string speed_code_name(int code) {
  return code == 0 ? "unknown" : std::string(pgn::speed_name(pgn::Speed(code - 1)));
}

std::string band_code_name(int code) {
  if (code == 0) return "unrated";
  if (code == 1) return "below 1000";
  return std::to_string(kBandFloors[code - 1]);
}

bool SliceFilter::accepts(uint32_t slice) const {
  if (!(variants & pgn::variant_bit(slice_variant(slice)))) return false;
  if (speeds != 0 && !(speeds >> slice_speed(slice) & 1)) return false;
  if (bands != 0 && !(bands >> slice_band(slice) & 1)) return false;
  if (since == 0 && until == 0) return true;
  uint32_t month = slice_month(slice);
  if (month == 0) return false;
  if (month % 13 == 0) ++month;  // a year without a month counts as its January
  return (since == 0 || month >= since) && (until == 0 || month <= until);
}

std::string SliceFilter::describe() const {
  std::string text;
  auto add = [&](std::string_view name, const std::string& value) {
    text += text.empty() ? "" : "; ";
    text += std::string(name) + "=" + value;
  };
  auto list = [](uint32_t bits, int codes, std::string (*name)(int)) {
    std::string items;
    for (int c = 0; c < codes; ++c) {
      if (!(bits >> c & 1)) continue;
      if (!items.empty()) items += ',';
      items += name(c);
    }
    return items;
  };
  if (speeds) add("speeds", list(speeds, kSpeedCodes, speed_code_name));
  if (bands) add("ratings", list(bands, kBandCodes, band_code_name));
  if (since) add("since", month_text(since));
  if (until) add("until", month_text(until));
  if (variants != pgn::kAnyVariant) add("variant", std::string(pgn::variant_set_name(variants)));
  return text.empty() ? "none" : text;
}

pgn::VariantSet answered_variants(std::optional<pgn::VariantSet> asked, pgn::VariantSet held) {
  if (asked) return *asked;
  return held == pgn::kAnyVariant ? pgn::kStandardOnly : held;
}

pgn::VariantSet query_variants(std::optional<pgn::VariantSet> asked, pgn::VariantSet held) {
  const pgn::VariantSet answered = answered_variants(asked, held);
  return answered == held ? pgn::kAnyVariant : answered;
}

Result<SliceFilter> parse_slice_filter(std::string_view speeds, std::string_view ratings,
                                       std::string_view since, std::string_view until) {
  SliceFilter f;
  Status s =
      each_item(speeds, "--speeds", "ultrabullet, bullet, blitz, rapid, classical, correspondence or unknown",
                [&](std::string_view item) {
                  for (int c = 0; c < kSpeedCodes; ++c)
                    if (speed_code_name(c) == item) {
                      f.speeds |= 1u << c;
                      return true;
                    }
                  return false;
                });
  if (!s) return s.error();
  s = each_item(ratings, "--ratings",
                "a band's floor: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500, 2800, or unrated",
                [&](std::string_view item) {
                  if (item == "unrated") {
                    f.bands |= 1u;
                    return true;
                  }
                  std::optional<int> floor = digits(item);
                  for (int i = 0; floor && i < kBandCount; ++i)
                    if (kBandFloors[i] == *floor) {
                      f.bands |= 1u << (i + 1);
                      return true;
                    }
                  return false;
                });
  if (!s) return s.error();
  for (auto [text, flag, last, bound] :
       {std::tuple{since, "--since", false, &f.since}, std::tuple{until, "--until", true, &f.until}}) {
    if (text.empty()) continue;
    std::optional<uint32_t> m = parse_month(text, last);
    if (!m)
      return Error{std::string(flag) + ": '" + std::string(text) +
                   "' is not a month (YYYY-MM or YYYY, from " + std::to_string(kFirstYear) + ")"};
    *bound = *m;
  }
  if (f.since && f.until && f.since > f.until)
    return Error{"--since " + month_text(f.since) + " comes after --until " + month_text(f.until)};
  return f;
}

}  // namespace bookforge::counts
