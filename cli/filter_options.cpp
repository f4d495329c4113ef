#include "cli/filter_options.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "cli/command.h"
#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "cli/progress_line.h"

namespace bookforge::cli {

namespace {

const std::vector<std::string> kResults = {"1-0", "0-1", "1/2-1/2", "*"};
// PGN ratings and ply counts are read as 16-bit numbers; a game ply past 65534 is not counted.
constexpr uint64_t kMaxRating = 65535;
constexpr uint64_t kMaxPly = 65534;

int days_in_month(int year, int month) {
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// "2020", "2020.05", "2020-05-17" -> "2020", "2020.05", "2020.05.17". Unknown trailing parts as
// PGN writes them are dropped ("2020.??.??" is the year 2020); a month or day that does not
// exist is an error.
Result<std::string> normalize_date(const std::string& text) {
  std::string date = text;
  std::replace(date.begin(), date.end(), '-', '.');
  while (date.size() > 4 && date.ends_with(".??")) date.resize(date.size() - 3);
  bool shape_ok = date.size() == 4 || date.size() == 7 || date.size() == 10;
  for (size_t i = 0; shape_ok && i < date.size(); ++i) {
    const bool dot_here = i == 4 || i == 7;
    shape_ok = dot_here ? date[i] == '.' : std::isdigit(static_cast<unsigned char>(date[i])) != 0;
  }
  if (!shape_ok) return Error{"expected a date YYYY, YYYY.MM or YYYY.MM.DD, got '" + text + "'"};
  const int year = std::stoi(date.substr(0, 4));
  const int month = date.size() >= 7 ? std::stoi(date.substr(5, 2)) : 1;
  if (month < 1 || month > 12) return Error{"'" + text + "' has no month " + date.substr(5, 2) + " (01..12)"};
  if (date.size() == 10) {
    const int day = std::stoi(date.substr(8, 2));
    const int days = days_in_month(year, month);
    if (day < 1 || day > days)
      return Error{"'" + text + "' has no day " + date.substr(8, 2) + " (" + date.substr(0, 7) + " has 01.." +
                   std::to_string(days) + ")"};
  }
  return date;
}

// NAME=REGEX -> pattern, or an error message.
Result<pgn::TagPattern> parse_tag_pattern(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return Error{"expected NAME=REGEX, got '" + text + "'"};
  pgn::TagPattern p;
  p.tag = text.substr(0, eq);
  p.pattern = text.substr(eq + 1);
  try {
    p.regex = std::regex(p.pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    return Error{"bad regular expression '" + p.pattern + "': " + e.what()};
  }
  return p;
}

CLI::Validator validator_from(const std::string& name, std::function<std::string(const std::string&)> check) {
  return CLI::Validator(std::move(check), "", name);
}

const CLI::Validator kDateCheck = validator_from("DATE", [](const std::string& s) {
  Result<std::string> date = normalize_date(s);
  return date ? std::string() : date.error().message;
});
const CLI::Validator kTagCheck = validator_from("NAME=REGEX", [](const std::string& s) {
  Result<pgn::TagPattern> p = parse_tag_pattern(s);
  return p ? std::string() : p.error().message;
});
const CLI::Validator kSpeedCheck = validator_from("SPEED", [](const std::string& s) {
  return pgn::parse_speed(s)
             ? std::string()
             : "unknown speed '" + s + "' (ultrabullet, bullet, blitz, rapid, classical, correspondence)";
});

}  // namespace

void add_filter_options(CLI::App* cmd, FilterFlags& f) {
  const std::string group = "Game filters";
  cmd->add_option("--min-elo", f.min_elo, "Both players rated at least this")
      ->transform(whole_number(0, kMaxRating))
      ->group(group);
  cmd->add_option("--min-avg-elo", f.min_avg_elo, "Average rating at least this")
      ->transform(whole_number(0, kMaxRating))
      ->group(group);
  cmd->add_option("--max-elo-diff", f.max_elo_diff, "Rating difference at most this")
      ->transform(whole_number(1, kMaxRating))
      ->group(group);
  cmd->add_option("--min-white-elo", f.min_white_elo, "White rated at least this")
      ->transform(whole_number(0, kMaxRating))
      ->group(group);
  cmd->add_option("--min-black-elo", f.min_black_elo, "Black rated at least this")
      ->transform(whole_number(0, kMaxRating))
      ->group(group);
  cmd->add_flag("--exclude-unrated", f.exclude_unrated, "Drop games where a player has no rating")
      ->group(group);
  cmd->add_option("--results", f.results, "Accepted results, e.g. 1-0,0-1,1/2-1/2 (drops '*')")
      ->delimiter(',')
      ->check(CLI::IsMember(kResults))
      ->group(group);
  cmd->add_option("--min-plies", f.min_plies, "Games at least this many plies long")
      ->transform(whole_number(0, kMaxPly))
      ->group(group);
  cmd->add_option("--date-from", f.date_from, "Games played on or after this date (YYYY[.MM[.DD]])")
      ->check(kDateCheck)
      ->group(group);
  cmd->add_option("--date-to", f.date_to, "Games played on or before this date (YYYY[.MM[.DD]])")
      ->check(kDateCheck)
      ->group(group);
  cmd->add_option("--speed", f.speeds,
                  "Speeds from TimeControl (base + 40 x increment, lichess thresholds): "
                  "ultrabullet,bullet,blitz,rapid,classical,correspondence")
      ->delimiter(',')
      ->check(kSpeedCheck)
      ->group(group);
  cmd->add_option("--tag", f.tags, "Keep games whose tag NAME matches REGEX (repeatable; all must match)")
      ->check(kTagCheck)
      ->group(group);
  cmd->add_option("--exclude-tag", f.exclude_tags, "Drop games whose tag NAME matches REGEX (repeatable)")
      ->check(kTagCheck)
      ->group(group);
  cmd->add_flag("--no-setup", f.no_setup, "Drop games that start from a FEN position")->group(group);
  cmd->add_option("--variant", f.variant,
                  "Games of these rules: standard (the default; Chess960 games count as another variant), "
                  "chess960 (games tagged Variant \"Chess960\" or \"Fischerandom\") or any of the two")
      ->transform(enum_names(pgn::parse_variant, "standard, chess960 or any"))
      ->group(group);
}

Result<pgn::GameFilter> make_game_filter(const FilterFlags& f) {
  pgn::GameFilter filter;
  filter.min_elo = f.min_elo;
  filter.min_avg_elo = f.min_avg_elo;
  filter.max_elo_diff = f.max_elo_diff;
  filter.min_white_elo = f.min_white_elo;
  filter.min_black_elo = f.min_black_elo;
  filter.exclude_unrated = f.exclude_unrated;
  for (const std::string& r : f.results) {
    if (std::find(kResults.begin(), kResults.end(), r) == kResults.end())
      return Error{"--results: unknown result '" + r + "'"};
    filter.results.push_back(r);
  }
  filter.min_plies = f.min_plies;
  for (auto [text, out, flag] : {std::tuple{&f.date_from, &filter.date_from, "--date-from"},
                                 std::tuple{&f.date_to, &filter.date_to, "--date-to"}}) {
    if (text->empty()) continue;
    Result<std::string> date = normalize_date(*text);
    if (!date) return Error{std::string(flag) + ": " + date.error().message};
    *out = std::move(*date);
  }
  for (const std::string& s : f.speeds) {
    std::optional<pgn::Speed> speed = pgn::parse_speed(s);
    if (!speed) return Error{"--speed: unknown speed '" + s + "'"};
    filter.speeds.push_back(*speed);
  }
  for (auto [texts, out, flag] : {std::tuple{&f.tags, &filter.include_tags, "--tag"},
                                  std::tuple{&f.exclude_tags, &filter.exclude_tags, "--exclude-tag"}}) {
    for (const std::string& text : *texts) {
      Result<pgn::TagPattern> p = parse_tag_pattern(text);
      if (!p) return Error{std::string(flag) + ": " + p.error().message};
      out->push_back(std::move(*p));
    }
  }
  filter.no_setup = f.no_setup;
  filter.variant = f.variant;
  return filter;
}

void add_read_options(CLI::App* cmd, ReadFlags& r) {
  const std::string group = "Reading";
  cmd->add_option("--max-ply", r.max_ply, "Replay at most this many plies per game (0 = whole games)")
      ->transform(whole_number(0, kMaxPly))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--threads", r.threads, "Parser threads (0 = all cores)")
      ->transform(whole_number(0, kMaxThreads))
      ->group(group);
  cmd->add_flag("--strict", r.strict, "Stop at the first bad game instead of skipping it")->group(group);
  cmd->add_option("--progress", r.progress,
                  "Progress line on stderr: never, auto (when a terminal) or always")
      ->check(CLI::IsMember({"never", "auto", "always"}))
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--quiet,-q", r.quiet, "No progress line and no warnings")->group(group);
}

int read_threads(const ReadFlags& read) {
  pgn::PipelineOptions options;
  options.threads = read.threads;
  return pgn::pipeline_threads(options);
}

bool shows_progress(const ReadFlags& read) {
  return !read.quiet && (read.progress == "always" || (read.progress == "auto" && ::isatty(STDERR_FILENO)));
}

Result<pgn::PipelineOptions> make_pipeline_options(const std::vector<std::string>& inputs,
                                                   const FilterFlags& filter, const ReadFlags& read) {
  Result<pgn::GameFilter> game_filter = make_game_filter(filter);
  if (!game_filter) return game_filter.error();
  pgn::PipelineOptions options;
  options.inputs = inputs;
  options.threads = read.threads;
  options.max_ply = read.max_ply;
  options.filter = std::move(*game_filter);
  options.strict = read.strict;
  options.progress = pgn::ProgressMode::kNever;
  if (shows_progress(read)) {
    options.progress = read.progress == "always" ? pgn::ProgressMode::kAlways : pgn::ProgressMode::kAuto;
    options.on_progress = make_progress_printer();
  }
  return options;
}

}  // namespace bookforge::cli
