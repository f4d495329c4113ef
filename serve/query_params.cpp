#include "serve/query_params.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace bookforge::serve {

std::optional<std::string> find_param(const QueryParams& params, const std::string& name) {
  auto found = params.find(name);
  if (found == params.end() || found->second.empty()) return std::nullopt;
  return found->second;
}

Result<int> int_param(const QueryParams& params, const std::string& name, int fallback, int min, int max) {
  std::optional<std::string> text = find_param(params, name);
  if (!text) return fallback;
  int value = 0;
  const char* end = text->data() + text->size();
  auto [stop, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || stop != end || value < min || value > max)
    return Error{name + ": expected a whole number from " + std::to_string(min) + " to " +
                 std::to_string(max) + ", got " + quoted_value(*text)};
  return value;
}

Result<int> count_param(const QueryParams& params, const std::string& name, int fallback, int max) {
  std::optional<std::string> text = find_param(params, name);
  if (!text) return fallback;
  uint64_t value = 0;
  const char* end = text->data() + text->size();
  auto [stop, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || stop != end)
    return Error{name + ": expected a whole number, got " + quoted_value(*text)};
  return int(std::min<uint64_t>(value, uint64_t(max)));
}

std::string quoted_value(const std::string& value) {
  constexpr size_t kShown = 40;
  return "\"" + (value.size() > kShown ? value.substr(0, kShown) + "..." : value) + "\"";
}

}  // namespace bookforge::serve
