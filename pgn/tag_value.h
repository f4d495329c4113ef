// Tag values as the lexer hands them out: borrowed raw bytes, decoded only when someone asks.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
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
  // Whether decode() gives raw() back: no escapes and nothing but ASCII, as most values are.
  bool decodes_to_raw() const;
  // The value as a non-negative integer (Elo, PlyCount), or nullopt for "", "?", "-", junk.
  std::optional<int> to_int() const;

 private:
  std::string_view raw_;
};

// The tags of the game being visited, in file order; the first of duplicate names wins. The
// few tags the reader itself consults (Result, FEN, Variant, the Elos, Date, TimeControl) are
// also kept in slots, so looking them up costs no string comparisons.
class TagList {
 public:
  void clear() {
    tags_.clear();
    known_.fill(TagValue());
    present_ = 0;
  }
  void add(std::string_view name, TagValue value) {
    tags_.emplace_back(name, value);
    int k = known_index(name);
    if (k >= 0 && !(present_ & (1u << k))) {
      known_[size_t(k)] = value;
      present_ |= 1u << k;
    }
  }
  std::optional<TagValue> find(std::string_view name) const {
    if (int k = known_index(name); k >= 0) {
      if (present_ & (1u << k)) return known_[size_t(k)];
      return std::nullopt;
    }
    for (const auto& [n, v] : tags_)
      if (n == name) return v;
    return std::nullopt;
  }
  const std::vector<std::pair<std::string_view, TagValue>>& entries() const { return tags_; }

 private:
  static int known_index(std::string_view name) {
    auto is = [&](const char* known) { return std::memcmp(name.data(), known, name.size()) == 0; };
    switch (name.size()) {
      case 3:
        return is("FEN") ? 0 : -1;
      case 4:
        return is("Date") ? 1 : -1;
      case 6:
        return is("Result") ? 2 : -1;
      case 7:
        return is("Variant") ? 3 : -1;
      case 8:
        return is("WhiteElo") ? 4 : is("BlackElo") ? 5 : -1;
      case 11:
        return is("TimeControl") ? 6 : -1;
      default:
        return -1;
    }
  }

  std::vector<std::pair<std::string_view, TagValue>> tags_;
  std::array<TagValue, 7> known_{};
  unsigned present_ = 0;
};

// Is `text` valid UTF-8?
bool is_valid_utf8(std::string_view text);
// `text` itself when it is valid UTF-8, else `text` read as Latin-1 and converted.
std::string to_utf8(std::string_view text);

}  // namespace bookforge::pgn
