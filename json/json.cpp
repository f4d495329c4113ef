#include "json/json.h"

#include <cstdio>
#include <cstdlib>

#include "pgn/tag_value.h"

namespace bookforge::json {

std::string json_text(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Json outside_text(std::string_view text) { return pgn::to_utf8(text); }

Json fixed_decimals(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  if (decimals == 0) return std::strtoll(text, nullptr, 10);
  return std::strtod(text, nullptr);
}

}  // namespace bookforge::json
