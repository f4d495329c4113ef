// Which games a run accepts. The same filters serve scan, build and db add; cli/ fills this
// struct from flags (see cli/filter_options.h) and the pipeline applies it per game.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace bookforge::pgn {

enum class Speed : uint8_t { kUltraBullet, kBullet, kBlitz, kRapid, kClassical, kCorrespondence };

struct TagPattern {
  std::string tag;       // tag name, matched exactly
  std::string pattern;   // as the user wrote it (recorded in reports and the store)
  std::regex regex;      // compiled pattern, searched anywhere in the value
};

struct GameFilter {
  int min_elo = 0;            // both players at least this (0 = off)
  int min_avg_elo = 0;
  int max_elo_diff = 0;       // 0 = off
  int min_white_elo = 0;
  int min_black_elo = 0;
  bool exclude_unrated = false;  // drop games where either Elo is missing
  std::vector<std::string> results;  // accepted results ("1-0", "0-1", "1/2-1/2", "*"); empty = all
  int min_plies = 0;          // whole game length in plies
  std::string date_from;      // "YYYY.MM.DD" prefix compare; empty = off
  std::string date_to;
  std::vector<Speed> speeds;  // from TimeControl; empty = off
  std::vector<TagPattern> include_tags;  // every pattern must match
  std::vector<TagPattern> exclude_tags;  // any match drops the game
  bool no_setup = false;      // drop games that start from a FEN

  // A stable text form of the filter (used in reports and to check that a store is always
  // fed with the same filters).
  std::string describe() const;
};

}  // namespace bookforge::pgn
