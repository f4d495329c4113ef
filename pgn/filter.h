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

// Which variants a run keeps: a bit per Variant.
enum VariantSet : uint8_t { kStandardOnly = 1, kChess960Only = 2, kAnyVariant = 3 };
constexpr VariantSet variant_bit(Variant v) { return VariantSet(1u << unsigned(v)); }

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
  // The variants kept: standard chess unless asked (--variant chess960 or any), so that a
  // book of a database that holds both is the standard book it always was.
  VariantSet variants = kStandardOnly;
  bool keeps(Variant variant) const { return variants & variant_bit(variant); }

  // A stable text form of the filter (used in reports and to check that a store is always
  // fed with the same filters).
  std::string describe() const;

  // The first filter that rejects a game, judged on its tags and result (every filter but
  // min_plies and the variant, which the replay applies as it reads the Variant tag first),
  // or an empty view when the game passes. The names are the keys of
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

// The variant a Variant tag's value names, matched ignoring ASCII case: standard chess as files
// name it ("", "Standard", "Chess", "Normal", and lichess's "From Position" for a standard game
// from a set-up position) or Chess960 ("Chess960", "Chess 960", "Fischerandom" (cute chess),
// "Fischerrandom", "Fischer Random", "960"); nullopt for any other variant.
std::optional<Variant> variant_of_tag(std::string_view value);
// The variant of a game by its tags: standard without a Variant tag.
std::optional<Variant> game_variant(const TagList& tags);
// "standard", "chess960" or "any"; nullopt for anything else.
std::optional<VariantSet> parse_variant_set(std::string_view name);
std::string_view variant_set_name(VariantSet set);
// The variants of a filter from its describe() text (a store keeps that text): standard when
// it names none.
VariantSet variants_of_description(std::string_view description);

}  // namespace bookforge::pgn
