// Flags that name one of a rule's enum values, read by the names the rules know
// (book::parse_weight_kind, ...): `build` and `count` take --weight the same way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// The names --weight takes (book::parse_weight_kind).
inline constexpr const char* kWeightChoices = "games, score, uniform or rating";

// The text becomes the enum's number, which CLI11 stores into the field; anything else is
// refused, listing `choices`.
template <class Enum>
CLI::Validator enum_names(std::optional<Enum> (*parse)(std::string_view), const std::string& choices) {
  return CLI::Validator(
      [parse, choices](std::string& text) -> std::string {
        const std::optional<Enum> value = parse(text);
        if (!value) return "'" + text + "' is not one of " + choices;
        text = std::to_string(static_cast<int>(*value));
        return "";
      },
      "{" + choices + "}");
}

}  // namespace bookforge::cli
