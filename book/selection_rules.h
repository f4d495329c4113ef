// Which (position, move) pairs of the tally become book entries, and with what weight.
//
// Two presets: bookforge's defaults (a book of moves strong players actually play and that
// score) and Polyglot's `make-book` (every move played at least 3 times that ever scored).
// Every field is a command-line flag of `bookforge build` and can come from a config file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bookforge::book {

enum class WeightKind : uint8_t {
  kGames,    // games played
  kScore,    // 2 * wins + draws from the mover's view, as Polyglot weighs
  kUniform,  // every kept move weighs 1
  kRating    // games weighted by the mover's rating
};
enum class SideFilter : uint8_t { kBoth, kWhite, kBlack };

// A percentage threshold that can never be met (a share or a score drop above 100%).
inline constexpr double kRuleOff = 1000.0;

struct SelectionRules {
  // Counting (applied while the games are read and tallied).
  int max_ply = 60;            // positions within this many plies of the game's start; 0 = all
  bool count_repeats = false;  // a (position, move) a game plays twice counts twice
  // Every copy of a game counts, not only the first (counts/duplicate_filter.h); PGN input only,
  // a store's games were counted when added. Left out of describe(): a build reports the
  // copies on their own, with how many were dropped.
  bool keep_duplicates = false;

  // Per position. A position's games are the sum of its moves' games: a game that ended in
  // the position without a move from it is not counted there.
  uint64_t min_games = 3;
  SideFilter side = SideFilter::kBoth;

  // Per move, in this order (each applied to the survivors of the previous one; the position's
  // totals always cover all its moves).
  uint64_t min_move_games = 100;  // kept if played at least this often ...
  double min_move_share = 10;     // ... or in at least this percentage of the position's games
  bool drop_losing = true;        // drop a move that never scored better than a loss
  double min_score = 0;           // the mover's score in percent must reach this
  double max_score_drop = 10;     // percentage points a move may score below the position

  WeightKind weight = WeightKind::kGames;
  bool prune_unreachable = false;  // keep only positions reachable from the start position

  static SelectionRules article_defaults();
  // `polyglot make-book` with its own defaults (-max-ply 1024 -min-game 3 -min-score 0), which
  // counts every copy of a game.
  static SelectionRules polyglot();

  Status validate() const;
  std::string describe() const;

  // What the rules need from the tally beyond the results: the mover's rating sums (kept only
  // when asked, because they make the tally's tables half as large again).
  bool needs_ratings() const { return weight == WeightKind::kRating; }
};

// "default" or "polyglot".
std::optional<SelectionRules> rules_preset(std::string_view name);

std::string_view weight_kind_name(WeightKind kind);
std::optional<WeightKind> parse_weight_kind(std::string_view name);
std::string_view side_filter_name(SideFilter side);
std::optional<SideFilter> parse_side_filter(std::string_view name);

}  // namespace bookforge::book
