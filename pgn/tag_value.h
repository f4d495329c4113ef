// Tag values as the lexer hands them out: borrowed raw bytes, decoded only when someone asks.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bookforge::pgn {

class TagValue {
 public:
  constexpr TagValue() = default;
  constexpr explicit TagValue(std::string_view raw) : raw_(raw) {}

  // The bytes between the quotes, escapes untouched (valid while the game is being visited).
  constexpr std::string_view raw() const { return raw_; }
  // The value as text: "\\" and "\"" unescaped, and bytes that are not valid UTF-8 read as
  // Latin-1 (old files), so the result is always UTF-8.
  std::string decode() const;
  // The value as a non-negative integer (Elo, PlyCount), or nullopt for "", "?", "-", junk.
  std::optional<int> to_int() const;

 private:
  std::string_view raw_;
};

// The tags of the game being visited, in file order; the first of duplicate names wins.
class TagList {
 public:
  void clear() { tags_.clear(); }
  void add(std::string_view name, TagValue value) { tags_.emplace_back(name, value); }
  std::optional<TagValue> find(std::string_view name) const {
    for (const auto& [n, v] : tags_)
      if (n == name) return v;
    return std::nullopt;
  }
  const std::vector<std::pair<std::string_view, TagValue>>& entries() const { return tags_; }

 private:
  std::vector<std::pair<std::string_view, TagValue>> tags_;
};

// Is `text` valid UTF-8?
bool is_valid_utf8(std::string_view text);

}  // namespace bookforge::pgn
