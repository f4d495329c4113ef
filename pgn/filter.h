// Which games a run accepts. The same filters serve scan, build and db add; cli/ fills this
// struct from flags (see cli/filter_options.h) and the pipeline applies it per game.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/game.h"
#include "pgn/tag_value.h"

namespace bookforge::pgn {

enum class Speed : uint8_t { kUltraBullet, kBullet, kBlitz, kRapid, kClassical, kCorrespondence };

// The rules of the games a run reads (--variant). Games of any other variant (crazyhouse,
// atomic, ...) are never read: they count as unsupported_variant, and so do Chess960 games
// in a standard run, as they always have.
enum class Variant : uint8_t { kStandard, kChess960, kAny };

struct TagPattern {
  std::string tag;      // tag name, matched exactly
  std::string pattern;  // as the user wrote it (recorded in reports and the store)
  std::regex regex;     // compiled pattern, searched anywhere in the value
};

struct GameFilter {
  int min_elo = 0;  // both players at least this (0 = off)
  int min_avg_elo = 0;
  int max_elo_diff = 0;  // 0 = off
  int min_white_elo = 0;
  int min_black_elo = 0;
  bool exclude_unrated = false;      // drop games where either Elo is missing
  std::vector<std::string> results;  // accepted results ("1-0", "0-1", "1/2-1/2", "*"); empty = all
  int min_plies = 0;                 // whole game length in plies
  std::string date_from;             // "YYYY.MM.DD" prefix compare; empty = off
  std::string date_to;
  std::vector<Speed> speeds;             // from TimeControl; empty = off
  std::vector<TagPattern> include_tags;  // every pattern must match
  std::vector<TagPattern> exclude_tags;  // any match drops the game
  bool no_setup = false;                 // drop games that start from a FEN
  Variant variant = Variant::kStandard;

  // A stable text form of the filter (used in reports and to check that a store is always
  // fed with the same filters).
  std::string describe() const;

  // The first filter that rejects a game, judged on its tags and result (every filter but
  // min_plies), or an empty view when the game passes. The names are the keys of
  // ReadStats::rejected. Only the tags a filter needs are looked at; Elo values that are
  // missing or unreadable count as 0. A date or speed filter rejects games whose Date or
  // TimeControl is unknown.
  std::string_view rejects(const TagList& tags, Outcome result) const;
  // The same for min_plies, once the game's length is known.
  bool rejects_length(int plies) const { return plies < min_plies; }
  // True when no filter is set.
  bool empty() const;
};

// The filter names used as keys of ReadStats::rejected, in the order they are tried.
inline constexpr std::string_view kFilterNames[] = {
    "variant",      "exclude_unrated", "min_elo", "min_white_elo", "min_black_elo", "min_avg_elo",
    "max_elo_diff", "results",         "date",    "speed",         "no_setup",      "tag",
    "exclude_tag",  "min_plies"};

// The speed class of a TimeControl value by lichess's rule: estimated seconds = base + 40 x
// increment; < 30 ultrabullet, < 180 bullet, < 480 blitz, < 1500 rapid, else classical; "-"
// is correspondence. "40/7200:3600" counts its first period (7200 s). nullopt for "?", "" or
// anything unreadable.
std::optional<Speed> speed_from_time_control(std::string_view time_control);
std::optional<Speed> parse_speed(std::string_view name);  // "bullet", "blitz", ...
std::string_view speed_name(Speed speed);

std::optional<Variant> parse_variant(std::string_view name);  // "standard", "chess960", "any"
std::string_view variant_name(Variant variant);
// The rules a game's Variant tag names: standard chess under the names files use for it
// (none, "Standard", lichess's "From Position", ...), Chess960 under its ("Chess960",
// "Fischerandom", ...), or nullopt for any other variant.
std::optional<Variant> game_variant(std::string_view tag_value);

}  // namespace bookforge::pgn
