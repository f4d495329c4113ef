#include "serve/explorer_request.h"

#include <array>
#include <charconv>
#include <string_view>

namespace bookforge::serve {
namespace {

// The most we list; lichess takes any count and lists what it has.
constexpr int kMaxListedMoves = 1000;
constexpr int kMaxGames = 100;

// Applies `rewrite` to each comma-separated item of `list`.
template <class Rewrite>
Result<std::string> rewrite_items(std::string_view list, Rewrite rewrite) {
  std::string out;
  for (;;) {
    const size_t comma = list.find(',');
    Result<std::string> item = rewrite(list.substr(0, comma));
    if (!item) return item.error();
    out += *item;
    if (comma == std::string_view::npos) return out;
    out += ',';
    list.remove_prefix(comma + 1);
  }
}

// lichess spells one speed in camelCase; the store's names are all lower case.
std::string store_speed_names(std::string_view lichess_speeds) {
  return *rewrite_items(lichess_speeds, [](std::string_view item) -> Result<std::string> {
    return std::string(item == "ultraBullet" ? "ultrabullet" : item);
  });
}

// lichess reads a rating as the group holding it (its groups start at 0, 1000, 1200, ..., 2200,
// 2500), and its 2500 group holds every game above too; our 2800 band is the top of that.
Result<std::string> store_rating_bands(std::string_view lichess_ratings) {
  return rewrite_items(lichess_ratings, [](std::string_view item) -> Result<std::string> {
    unsigned value = 0;
    auto [stop, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc() || stop != item.data() + item.size() || value > 65535)
      return std::string(item);  // "unrated", or refused by the store's parser with its message
    if (value >= 2800) return std::string("2800");
    if (value >= 2500) return std::string("2500,2800");
    int floor = 0;
    for (int band : counts::kBandFloors)
      if (int(value) >= band) floor = band;
    return std::to_string(floor);
  });
}

// counts::parse_slice_filter names the command line's flags ("--speeds: unknown item ..."); the
// API's parameters are the same words without the dashes.
std::string parameter_message(std::string message) {
  constexpr std::array<std::string_view, 4> kNames{"speeds", "ratings", "since", "until"};
  for (size_t at = message.find("--"); at != std::string::npos; at = message.find("--", at)) {
    const std::string_view after = std::string_view(message).substr(at + 2);
    bool names_one = false;
    for (std::string_view name : kNames) names_one = names_one || after.starts_with(name);
    if (names_one)
      message.erase(at, 2);
    else
      at += 2;
  }
  return message;
}

// A month bound as the store's parser takes it: lichess writes "2019-05" or "2019/05"; on
// /masters a bound is a year.
Result<std::string> month_bound(const QueryParams& params, const std::string& name, ExplorerPath path) {
  std::string text = find_param(params, name).value_or("");
  if (path == ExplorerPath::kMasters) {
    if (text.find_first_not_of("0123456789") != std::string::npos)
      return Error{name + ": expected a year, got " + quoted_value(text)};
    return text;
  }
  if (const size_t slash = text.find('/'); slash != std::string::npos) text[slash] = '-';
  return text;
}

// lichess's spellings of true and false; nullopt for anything else.
std::optional<bool> history_value(std::string_view value) {
  for (std::string_view name : {"true", "True", "on", "1", "yes"})
    if (value == name) return true;
  for (std::string_view name : {"false", "False", "off", "0", "no"})
    if (value == name) return false;
  return std::nullopt;
}

}  // namespace

std::optional<pgn::Variant> explorer_variant(std::string_view variant) {
  for (std::string_view name : {"standard", "chess", "fromPosition", "Standard", "From Position"})
    if (variant == name) return pgn::Variant::kStandard;
  for (std::string_view name : {"chess960", "Chess960"})
    if (variant == name) return pgn::Variant::kChess960;
  return std::nullopt;
}

Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params, ExplorerPath path) {
  ExplorerRequest request;
  request.path = path;
  Result<int> moves = count_param(params, "moves", kDefaultExplorerMoves, kMaxListedMoves);
  if (!moves) return moves.error();
  request.max_moves = *moves;
  Result<int> top = count_param(params, "topGames", store::kTopGames, kMaxGames);
  if (!top) return top.error();
  Result<int> recent = count_param(params, "recentGames", store::kRecentGames, kMaxGames);
  if (!recent) return recent.error();
  request.top_games = *top;
  request.recent_games = *recent;
  if (std::optional<std::string> variant = find_param(params, "variant")) {
    const std::optional<pgn::Variant> v = explorer_variant(*variant);
    if (!v)
      return Error{"variant: only standard chess and chess960 are counted, got " + quoted_value(*variant)};
    request.variant = pgn::variant_bit(*v);
  }
  if (std::optional<std::string> history = find_param(params, "history")) {
    const std::optional<bool> wanted = history_value(*history);
    if (!wanted) return Error{"history: expected true or false, got " + quoted_value(*history)};
    request.history = *wanted;
  }

  // Our own path takes db explore's bands (the page's filters name them); lichess's, its groups.
  std::string ratings_text = find_param(params, "ratings").value_or("");
  Result<std::string> ratings = path == ExplorerPath::kOwn ? ratings_text : store_rating_bands(ratings_text);
  if (!ratings) return ratings.error();
  Result<std::string> since = month_bound(params, "since", path);
  if (!since) return since.error();
  Result<std::string> until = month_bound(params, "until", path);
  if (!until) return until.error();
  // Each bound alone: a since after until is a filter that selects nothing, as on lichess.
  Result<counts::SliceFilter> filter = counts::parse_slice_filter(
      store_speed_names(find_param(params, "speeds").value_or("")), *ratings, *since, "");
  if (!filter) return Error{parameter_message(filter.error().message)};
  Result<counts::SliceFilter> until_filter = counts::parse_slice_filter("", "", "", *until);
  if (!until_filter) return Error{parameter_message(until_filter.error().message)};
  request.filter = *filter;
  request.filter.until = until_filter->until;
  return request;
}

}  // namespace bookforge::serve
