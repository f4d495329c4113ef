#include "pgn/filter.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "pgn/result_token.h"

namespace bookforge::pgn {

namespace {

// Reads a non-negative decimal ("300", "10.931") from the front of `s`.
std::optional<double> take_number(std::string_view& s) {
  size_t n = 0;
  bool dot = false;
  while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || (s[n] == '.' && !dot))) {
    dot |= s[n] == '.';
    ++n;
  }
  if (n == 0 || s[0] == '.') return std::nullopt;
  double value = std::strtod(std::string(s.substr(0, n)).c_str(), nullptr);
  s.remove_prefix(n);
  return value;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

int elo_of(const TagList& tags, std::string_view name) {
  std::optional<TagValue> v = tags.find(name);
  return v ? v->to_int().value_or(0) : 0;
}

// Compares the first bound.size() bytes of the game's date with the bound; unknown parts
// ('?') or a missing date give nullopt.
std::optional<int> compare_date(std::string_view date, std::string_view bound) {
  if (date.size() < bound.size()) return std::nullopt;
  std::string_view prefix = date.substr(0, bound.size());
  if (prefix.find('?') != std::string_view::npos) return std::nullopt;
  return prefix.compare(bound);
}

bool any_match(const std::vector<TagPattern>& patterns, const TagList& tags, bool require_all) {
  for (const TagPattern& p : patterns) {
    std::optional<TagValue> v = tags.find(p.tag);
    bool match = v && std::regex_search(v->decode(), p.regex);
    if (require_all && !match) return false;
    if (!require_all && match) return true;
  }
  return require_all;
}

}  // namespace

std::optional<Speed> speed_from_time_control(std::string_view tc) {
  tc = trim(tc);
  if (tc == "-") return Speed::kCorrespondence;
  tc = tc.substr(0, tc.find(':'));  // first period of "40/7200:3600"
  if (size_t slash = tc.find('/'); slash != std::string_view::npos) tc.remove_prefix(slash + 1);
  std::optional<double> base = take_number(tc);
  if (!base) return std::nullopt;
  double increment = 0;
  if (!tc.empty() && tc[0] == '+') {
    tc.remove_prefix(1);
    std::optional<double> inc = take_number(tc);
    if (!inc) return std::nullopt;
    increment = *inc;
  }
  if (!tc.empty()) return std::nullopt;
  double estimate = *base + 40 * increment;
  if (estimate < 30) return Speed::kUltraBullet;
  if (estimate < 180) return Speed::kBullet;
  if (estimate < 480) return Speed::kBlitz;
  if (estimate < 1500) return Speed::kRapid;
  return Speed::kClassical;
}

std::string_view speed_name(Speed speed) {
  switch (speed) {
    case Speed::kUltraBullet:
      return "ultrabullet";
    case Speed::kBullet:
      return "bullet";
    case Speed::kBlitz:
      return "blitz";
    case Speed::kRapid:
      return "rapid";
    case Speed::kClassical:
      return "classical";
    case Speed::kCorrespondence:
      return "correspondence";
  }
  return "?";
}

std::optional<Speed> parse_speed(std::string_view name) {
  for (Speed s : {Speed::kUltraBullet, Speed::kBullet, Speed::kBlitz, Speed::kRapid, Speed::kClassical,
                  Speed::kCorrespondence})
    if (speed_name(s) == name) return s;
  return std::nullopt;
}

bool GameFilter::empty() const {
  return min_elo == 0 && min_avg_elo == 0 && max_elo_diff == 0 && min_white_elo == 0 && min_black_elo == 0 &&
         !exclude_unrated && results.empty() && min_plies == 0 && date_from.empty() && date_to.empty() &&
         speeds.empty() && include_tags.empty() && exclude_tags.empty() && !no_setup &&
         variants == kStandardOnly;
}

std::string_view GameFilter::rejects(const TagList& tags, Outcome result) const {
  const bool needs_elo =
      exclude_unrated || min_elo || min_white_elo || min_black_elo || min_avg_elo || max_elo_diff;
  if (needs_elo) {
    const int white = elo_of(tags, "WhiteElo");
    const int black = elo_of(tags, "BlackElo");
    if (exclude_unrated && (white == 0 || black == 0)) return "exclude_unrated";
    if (min_elo && std::min(white, black) < min_elo) return "min_elo";
    if (min_white_elo && white < min_white_elo) return "min_white_elo";
    if (min_black_elo && black < min_black_elo) return "min_black_elo";
    if (min_avg_elo && (white + black) < 2 * min_avg_elo) return "min_avg_elo";
    if (max_elo_diff && std::abs(white - black) > max_elo_diff) return "max_elo_diff";
  }
  if (!results.empty() && std::find(results.begin(), results.end(), outcome_text(result)) == results.end())
    return "results";
  if (!date_from.empty() || !date_to.empty()) {
    std::optional<TagValue> date = tags.find("Date");
    std::string_view raw = date ? trim(date->raw()) : std::string_view();
    if (!date_from.empty()) {
      std::optional<int> c = compare_date(raw, date_from);
      if (!c || *c < 0) return "date";
    }
    if (!date_to.empty()) {
      std::optional<int> c = compare_date(raw, date_to);
      if (!c || *c > 0) return "date";
    }
  }
  if (!speeds.empty()) {
    std::optional<TagValue> tc = tags.find("TimeControl");
    std::optional<Speed> speed = tc ? speed_from_time_control(tc->raw()) : std::nullopt;
    if (!speed || std::find(speeds.begin(), speeds.end(), *speed) == speeds.end()) return "speed";
  }
  if (no_setup) {
    std::optional<TagValue> fen = tags.find("FEN");
    if (fen && !trim(fen->raw()).empty()) return "no_setup";
  }
  if (!include_tags.empty() && !any_match(include_tags, tags, true)) return "tag";
  if (!exclude_tags.empty() && any_match(exclude_tags, tags, false)) return "exclude_tag";
  return {};
}

std::string GameFilter::describe() const {
  std::string text;
  auto add = [&](std::string_view name, const std::string& value) {
    if (!text.empty()) text += "; ";
    text += name;
    text += '=';
    text += value;
  };
  auto join = [](const auto& items, auto&& to_text) {
    std::string s;
    for (const auto& item : items) {
      if (!s.empty()) s += ',';
      s += to_text(item);
    }
    return s;
  };
  if (variants != kStandardOnly) add("variant", std::string(variant_set_name(variants)));
  if (exclude_unrated) add("exclude-unrated", "yes");
  if (min_elo) add("min-elo", std::to_string(min_elo));
  if (min_white_elo) add("min-white-elo", std::to_string(min_white_elo));
  if (min_black_elo) add("min-black-elo", std::to_string(min_black_elo));
  if (min_avg_elo) add("min-avg-elo", std::to_string(min_avg_elo));
  if (max_elo_diff) add("max-elo-diff", std::to_string(max_elo_diff));
  if (!results.empty()) {
    std::vector<std::string> sorted = results;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    add("results", join(sorted, [](const std::string& r) { return r; }));
  }
  if (!date_from.empty()) add("date-from", date_from);
  if (!date_to.empty()) add("date-to", date_to);
  if (!speeds.empty()) {
    std::vector<Speed> sorted = speeds;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    add("speed", join(sorted, [](Speed s) { return std::string(speed_name(s)); }));
  }
  if (no_setup) add("no-setup", "yes");
  for (const TagPattern& p : include_tags) add("tag", p.tag + "=" + p.pattern);
  for (const TagPattern& p : exclude_tags) add("exclude-tag", p.tag + "=" + p.pattern);
  if (min_plies) add("min-plies", std::to_string(min_plies));
  return text.empty() ? "none" : text;
}

std::optional<Variant> variant_of_tag(std::string_view value) {
  auto is_any = [&](std::initializer_list<std::string_view> names) {
    for (std::string_view name : names)
      if (value.size() == name.size() &&
          std::equal(value.begin(), value.end(), name.begin(),
                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }))
        return true;
    return false;
  };
  value = trim(value);
  if (is_any({"", "standard", "chess", "normal", "from position", "fromposition"})) return Variant::kStandard;
  if (is_any({"chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random", "960"}))
    return Variant::kChess960;
  return std::nullopt;
}

std::optional<Variant> game_variant(const TagList& tags) {
  std::optional<TagValue> tag = tags.find("Variant");
  return tag ? variant_of_tag(tag->raw()) : Variant::kStandard;
}

std::optional<VariantSet> parse_variant_set(std::string_view name) {
  if (name == "standard") return kStandardOnly;
  if (name == "chess960") return kChess960Only;
  if (name == "any") return kAnyVariant;
  return std::nullopt;
}

VariantSet variants_of_description(std::string_view description) {
  constexpr std::string_view kKey = "variant=";
  if (!description.starts_with(kKey)) return kStandardOnly;  // describe() puts it first
  description.remove_prefix(kKey.size());
  return parse_variant_set(description.substr(0, description.find(';'))).value_or(kStandardOnly);
}

std::string_view variant_set_name(VariantSet set) {
  return set == kStandardOnly ? "standard" : set == kChess960Only ? "chess960" : "any";
}

}  // namespace bookforge::pgn
