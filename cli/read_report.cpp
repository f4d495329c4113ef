#include "cli/read_report.h"

#include <cstdio>

#include "cli/command.h"

namespace bookforge::cli {

namespace {

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string by_key(const std::map<std::string, uint64_t>& counts) {
  std::string text;
  for (const auto& [key, n] : counts) {
    if (!text.empty()) text += ", ";
    text += key + " " + with_commas(n);
  }
  return text;
}

std::string describe(const pgn::BadGame& bad) {
  return bad.file + ":" + std::to_string(bad.line) + ": game " + std::to_string(bad.game_number) + ": " +
         bad.detail;
}

}  // namespace

std::string format_read_summary(const pgn::ReadStats& s) {
  char line[256];
  std::string text;
  auto row = [&](const char* label, const std::string& value) {
    std::snprintf(line, sizeof line, "%-20s %s\n", label, value.c_str());
    text += line;
  };
  row("games", with_commas(s.games));
  row("accepted", with_commas(s.accepted));
  uint64_t rejected = 0;
  for (const auto& [name, n] : s.rejected) rejected += n;
  row("rejected", with_commas(rejected) + (rejected ? "  (" + by_key(s.rejected) + ")" : ""));
  row("bad games", with_commas(s.bad) + (s.bad ? "  (" + by_key(s.bad_reasons) + ")" : ""));
  for (const pgn::BadGame& bad : s.bad_examples) text += "  " + describe(bad) + "\n";
  if (s.bad > s.bad_examples.size())
    text += "  ... and " + with_commas(s.bad - s.bad_examples.size()) + " more\n";
  row("unsupported variant", with_commas(s.unsupported_variant));
  row("plies replayed", with_commas(s.plies));
  std::snprintf(line, sizeof line, "%s (%.1f MB)", with_commas(s.bytes).c_str(), double(s.bytes) / 1e6);
  row("bytes read", line);
  const double seconds = s.seconds > 0 ? s.seconds : 1e-9;
  std::snprintf(line, sizeof line, "%.2f s  (%.1f MB/s, %.0f games/s)", s.seconds,
                double(s.bytes) / 1e6 / seconds, double(s.games) / seconds);
  row("time", line);
  return text;
}

std::string describe_no_game_kept(const pgn::ReadStats& s) {
  std::string text = "no game kept: " + with_commas(s.games) + " game(s) read";
  uint64_t rejected = 0;
  for (const auto& [name, n] : s.rejected) rejected += n;
  if (rejected)
    text += ", " + with_commas(rejected) + " rejected by the filters (" + by_key(s.rejected) + ")";
  if (s.bad) text += ", " + with_commas(s.bad) + " bad (" + by_key(s.bad_reasons) + ")";
  if (s.unsupported_variant) text += ", " + with_commas(s.unsupported_variant) + " of unsupported variants";
  return text;
}

void warn_bad_games(const pgn::ReadStats& s) {
  if (s.bad == 0) return;
  for (const pgn::BadGame& bad : s.bad_examples) print_warning("skipped bad game: " + describe(bad));
  print_warning(with_commas(s.bad) + " bad game(s) skipped: " + by_key(s.bad_reasons));
}

}  // namespace bookforge::cli
