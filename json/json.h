// The JSON value every definition here makes, how it is written out, and the few value rules
// all of them share. Why a folder of its own: json/CMakeLists.txt.
//
// One definition per type: each type bookforge shows as JSON has one `to_json` here, used by
// the CLI's --json outputs and by the server alike. Where the two name things differently (the
// CLI's snake_case fields, the HTTP API's lichess-style camelCase ones) the definition takes a
// Style, so that both come from the same code.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bookforge::json {

// Keys keep the order they are written in, so the text reads as the definition does.
using Json = nlohmann::ordered_json;

enum class Style {
  kCli,  // the --json outputs: snake_case names, percentages rounded for reading
  kApi,  // the HTTP API: lichess's explorer names and counts, camelCase for our own fields
};

// The text of a value: on one line (indent < 0) or indented. Never throws: a string that is not
// UTF-8 by then (an error message quoting bytes a client sent) gets U+FFFD for its bad bytes.
std::string json_text(const Json& value, int indent = -1);

// Text from outside (file names, PGN bytes, a client's words): bytes that are not UTF-8 read as
// Latin-1, as PGN tags are (pgn/tag_value.h), so the CLI and the server show the same name.
Json outside_text(std::string_view text);

// `value` as printf's "%.*f" shows it (so a figure reads the same as in the text outputs): a
// whole number for 0 decimals, else the nearest double to the rounded decimal.
Json fixed_decimals(double value, int decimals);

template <class T>
Json value_or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

}  // namespace bookforge::json
