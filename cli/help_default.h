// "[default]" at the end of a flag's help, made from the options struct's own value (such as
// SelectionRules{} or RescoreOptions{}), never from a second copy of it.
#pragma once

#include <string>
#include <string_view>

namespace bookforge::cli {

inline std::string shown(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return "[" + text + "]";
}
inline std::string shown(bool value) { return value ? "[on]" : "[off]"; }
inline std::string shown(std::string_view name) { return "[" + std::string(name) + "]"; }

}  // namespace bookforge::cli
