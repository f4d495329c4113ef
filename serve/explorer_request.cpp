#include "serve/explorer_request.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace bookforge::serve {
namespace {

constexpr std::array<std::string_view, 6> kSpeeds{"ultraBullet", "bullet",    "blitz",
                                                  "rapid",       "classical", "correspondence"};
constexpr std::array<std::string_view, 10> kRatingBands{"0",    "400",  "1000", "1200", "1400",
                                                        "1600", "1800", "2000", "2200", "2500"};
// The largest counts lichess answers with; more are refused there too.
constexpr int kMaxListedMoves = 1000;
constexpr int kMaxGames = 100;

template <size_t N>
Status check_list(const std::string& name, const std::string& value,
                  const std::array<std::string_view, N>& allowed) {
  std::string_view rest = value;
  for (;;) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
      return Error{name + ": unknown value " + quoted_value(std::string(item))};
    if (comma == std::string_view::npos) return ok_status();
    rest.remove_prefix(comma + 1);
  }
}

bool is_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A year ("1952", as the masters database takes it) or a month ("2016-05", as lichess's).
Status check_month(const std::string& name, const std::string& value) {
  const std::string_view text = value;
  const bool year = text.size() == 4 && is_digits(text);
  const bool month = text.size() == 7 && is_digits(text.substr(0, 4)) && text[4] == '-' &&
                     is_digits(text.substr(5)) && text.substr(5) >= "01" && text.substr(5) <= "12";
  if (!year && !month)
    return Error{name + ": expected a year (YYYY) or a month (YYYY-MM), got " + quoted_value(value)};
  return ok_status();
}

}  // namespace

Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params) {
  ExplorerRequest request;
  Result<int> moves = int_param(params, "moves", kDefaultExplorerMoves, 0, kMaxListedMoves);
  if (!moves) return moves.error();
  request.max_moves = *moves;
  for (const char* counted : {"topGames", "recentGames"})
    if (Result<int> count = int_param(params, counted, 0, 0, kMaxGames); !count) return count.error();
  if (std::optional<std::string> variant = find_param(params, "variant");
      variant && *variant != "standard" && *variant != "chess")
    return Error{"variant: only standard chess is counted, got " + quoted_value(*variant)};

  Status checked = ok_status();
  if (std::optional<std::string> speeds = find_param(params, "speeds")) {
    checked = check_list("speeds", *speeds, kSpeeds);
    request.ignored.push_back("speeds");
  }
  if (std::optional<std::string> ratings = find_param(params, "ratings"); ratings && checked) {
    checked = check_list("ratings", *ratings, kRatingBands);
    request.ignored.push_back("ratings");
  }
  for (const char* bound : {"since", "until"}) {
    if (std::optional<std::string> month = find_param(params, bound); month && checked) {
      checked = check_month(bound, *month);
      request.ignored.push_back(bound);
    }
  }
  if (!checked) return checked.error();
  return request;
}

}  // namespace bookforge::serve
