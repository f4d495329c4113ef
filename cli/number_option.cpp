#include "cli/number_option.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace bookforge::cli {
namespace {

// A decimal integer as its sign and magnitude; `fits` is false when the magnitude is past
// 2^64 - 1 (still a number, just out of any range).
struct WholeText {
  bool negative = false;
  uint64_t magnitude = 0;
  bool fits = true;
};

std::optional<WholeText> read_whole(std::string_view text) {
  WholeText w;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    w.negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, w.magnitude);
  if (stop != end) return std::nullopt;
  w.fits = ec == std::errc();
  if (w.magnitude == 0) w.negative = false;
  return w;
}

bool within(const WholeText& w, int64_t min, uint64_t max) {
  if (!w.fits) return false;
  if (w.negative) return min < 0 && w.magnitude <= uint64_t(-(min + 1)) + 1;
  return w.magnitude <= max && (min <= 0 || w.magnitude >= uint64_t(min));
}

std::string shortest(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

}  // namespace

CLI::Validator whole_number(int64_t min, uint64_t max) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        std::optional<WholeText> w = read_whole(text);
        if (!w || !within(*w, min, max))
          return "expected a whole number in " + range + ", got '" + text + "'";
        text = (w->negative ? "-" : "") + std::to_string(w->magnitude);
        return {};
      },
      range);
}

CLI::Validator decimal_number(double min, double max) {
  const bool open = std::isinf(max);
  const std::string range = open ? "at least " + shortest(min) : shortest(min) + ".." + shortest(max);
  return CLI::Validator(
      [min, max, range, open](std::string& text) -> std::string {
        std::string_view digits = text;
        if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
        double value = 0;
        const char* end = digits.data() + digits.size();
        auto [stop, ec] = std::from_chars(digits.data(), end, value);
        const bool ok = !digits.empty() && ec == std::errc() && stop == end && std::isfinite(value) &&
                        value >= min && value <= max;
        if (!ok)
          return "expected a number " + std::string(open ? "" : "in ") + range + ", got '" + text + "'";
        return {};
      },
      open ? ">=" + shortest(min) : range);
}

}  // namespace bookforge::cli
