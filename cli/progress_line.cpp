#include "cli/progress_line.h"

#include <cstdio>
#include <string>

namespace bookforge::cli {

namespace {

std::string format_duration(double seconds) {
  long s = long(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

}  // namespace

std::function<void(const pgn::Progress&)> make_progress_printer() {
  return [](const pgn::Progress& p) {
    if (p.done) {
      std::fprintf(stderr, "\r%-79s\r", "");
      std::fflush(stderr);
      return;
    }
    const double seconds = p.seconds > 0 ? p.seconds : 1e-9;
    const double mb_per_s = double(p.bytes_read) / 1e6 / seconds;
    const double games_per_s = double(p.games) / seconds;
    char line[160];
    if (p.total_bytes > 0) {
      const double fraction = double(p.bytes_read) / double(p.total_bytes);
      const double eta = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
      std::snprintf(line, sizeof line, "%5.1f%%  %7.1f MB/s  %9.0f games/s  %llu games  ETA %s",
                    100 * fraction, mb_per_s, games_per_s, static_cast<unsigned long long>(p.games),
                    format_duration(eta).c_str());
    } else {
      std::snprintf(line, sizeof line, "%8.1f MB  %7.1f MB/s  %9.0f games/s  %llu games",
                    double(p.bytes_read) / 1e6, mb_per_s, games_per_s,
                    static_cast<unsigned long long>(p.games));
    }
    std::fprintf(stderr, "\r%-79s", line);
    std::fflush(stderr);
  };
}

}  // namespace bookforge::cli
