#include "book/selection_rules.h"

#include <sstream>

namespace bookforge::book {

SelectionRules SelectionRules::article_defaults() { return SelectionRules{}; }

SelectionRules SelectionRules::polyglot() {
  SelectionRules r;
  r.max_ply = 1024;
  r.count_repeats = true;
  r.keep_duplicates = true;
  r.min_games = 0;
  r.min_move_games = 3;
  r.min_move_share = kRuleOff;
  r.drop_losing = true;
  r.min_score = 0;
  r.max_score_drop = kRuleOff;
  r.weight = WeightKind::kScore;
  return r;
}

Status SelectionRules::validate() const {
  if (max_ply < 0) return Error{"--max-ply must not be negative"};
  if (max_ply > 0xfffe) return Error{"--max-ply must be at most 65534"};
  if (!(min_move_share >= 0)) return Error{"--min-move-share must be a percentage (>= 0)"};
  if (!(min_score >= 0 && min_score <= 100)) return Error{"--min-score must be a percentage from 0 to 100"};
  if (!(max_score_drop >= 0)) return Error{"--max-score-drop must not be negative"};
  return ok_status();
}

namespace {
std::string percent_or_off(double value) {
  if (value > 100) return "off";
  std::ostringstream s;
  s << value;
  return s.str();
}
}  // namespace

std::string SelectionRules::describe() const {
  std::ostringstream s;
  s << "max-ply " << max_ply << ", count-repeats " << (count_repeats ? "on" : "off") << ", min-games "
    << min_games << ", side " << side_filter_name(side) << ", min-move-games " << min_move_games
    << ", min-move-share " << percent_or_off(min_move_share) << ", drop-losing "
    << (drop_losing ? "on" : "off") << ", min-score " << min_score << ", max-score-drop "
    << percent_or_off(max_score_drop) << ", weight " << weight_kind_name(weight) << ", prune-unreachable "
    << (prune_unreachable ? "on" : "off");
  return s.str();
}

std::optional<SelectionRules> rules_preset(std::string_view name) {
  if (name == "default" || name == "article") return SelectionRules::article_defaults();
  if (name == "polyglot") return SelectionRules::polyglot();
  return std::nullopt;
}

std::string_view weight_kind_name(WeightKind kind) {
  switch (kind) {
    case WeightKind::kGames:
      return "games";
    case WeightKind::kScore:
      return "score";
    case WeightKind::kUniform:
      return "uniform";
    case WeightKind::kRating:
      return "rating";
  }
  return "games";
}

std::optional<WeightKind> parse_weight_kind(std::string_view name) {
  for (WeightKind k : {WeightKind::kGames, WeightKind::kScore, WeightKind::kUniform, WeightKind::kRating})
    if (weight_kind_name(k) == name) return k;
  return std::nullopt;
}

std::string_view side_filter_name(SideFilter side) {
  switch (side) {
    case SideFilter::kBoth:
      return "both";
    case SideFilter::kWhite:
      return "white";
    case SideFilter::kBlack:
      return "black";
  }
  return "both";
}

std::optional<SideFilter> parse_side_filter(std::string_view name) {
  for (SideFilter s : {SideFilter::kBoth, SideFilter::kWhite, SideFilter::kBlack})
    if (side_filter_name(s) == name) return s;
  return std::nullopt;
}

}  // namespace bookforge::book
