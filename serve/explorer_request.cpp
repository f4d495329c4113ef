#include "serve/explorer_request.h"

#include <array>
#include <string_view>

namespace bookforge::serve {
namespace {

// The largest counts lichess answers with; more are refused there too.
constexpr int kMaxListedMoves = 1000;
constexpr int kMaxGames = 100;

// lichess spells one speed in camelCase; the store's names are all lower case.
std::string store_speed_names(std::string_view lichess_speeds) {
  constexpr std::string_view kLichessName = "ultraBullet", kStoreName = "ultrabullet";
  std::string speeds;
  for (;;) {
    const size_t comma = lichess_speeds.find(',');
    const std::string_view item = lichess_speeds.substr(0, comma);
    speeds += item == kLichessName ? kStoreName : item;
    if (comma == std::string_view::npos) return speeds;
    speeds += ',';
    lichess_speeds.remove_prefix(comma + 1);
  }
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

}  // namespace

Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params) {
  ExplorerRequest request;
  Result<int> moves = int_param(params, "moves", kDefaultExplorerMoves, 0, kMaxListedMoves);
  if (!moves) return moves.error();
  request.max_moves = *moves;
  Result<int> top = int_param(params, "topGames", store::kTopGames, 0, kMaxGames);
  if (!top) return top.error();
  Result<int> recent = int_param(params, "recentGames", store::kRecentGames, 0, kMaxGames);
  if (!recent) return recent.error();
  request.top_games = *top;
  request.recent_games = *recent;
  if (std::optional<std::string> variant = find_param(params, "variant");
      variant && *variant != "standard" && *variant != "chess")
    return Error{"variant: only standard chess is counted, got " + quoted_value(*variant)};

  Result<counts::SliceFilter> filter = counts::parse_slice_filter(
      store_speed_names(find_param(params, "speeds").value_or("")),
      find_param(params, "ratings").value_or(""), find_param(params, "since").value_or(""),
      find_param(params, "until").value_or(""));
  if (!filter) return Error{parameter_message(filter.error().message)};
  request.filter = *filter;
  return request;
}

}  // namespace bookforge::serve
