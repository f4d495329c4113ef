// The flags every command that reads PGN shares (scan, build, db add): the game filters and
// the reading options. A command declares them on its CLI11 subcommand and, once parsed, turns
// them into pgn::PipelineOptions:
//
//   FilterFlags filter;  ReadFlags read;  read.max_ply = 30;  // the command's default
//   add_filter_options(cmd, filter);
//   add_read_options(cmd, read);
//   ... in the callback:
//   Result<pgn::PipelineOptions> options = make_pipeline_options(files, filter, read);
//
// Bad values (an unknown speed, a broken regex, a malformed date) are rejected while parsing,
// with CLI11's message and exit code 2.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/result.h"
#include "pgn/filter.h"
#include "pgn/pipeline.h"

namespace bookforge::cli {

struct FilterFlags {
  int min_elo = 0;
  int min_avg_elo = 0;
  int max_elo_diff = 0;
  int min_white_elo = 0;
  int min_black_elo = 0;
  bool exclude_unrated = false;
  std::vector<std::string> results;  // "1-0", "0-1", "1/2-1/2", "*"
  int min_plies = 0;
  std::string date_from;  // YYYY[.MM[.DD]], '-' accepted for '.'
  std::string date_to;
  std::vector<std::string> speeds;        // ultrabullet, bullet, blitz, rapid, classical, correspondence
  std::vector<std::string> tags;          // NAME=REGEX, all must match
  std::vector<std::string> exclude_tags;  // NAME=REGEX, any match drops the game
  bool no_setup = false;
  pgn::Variant variant = pgn::Variant::kStandard;
};

// --min-elo --min-avg-elo --max-elo-diff --min-white-elo --min-black-elo --exclude-unrated
// --results --min-plies --date-from --date-to --speed --tag --exclude-tag --no-setup --variant
void add_filter_options(CLI::App* cmd, FilterFlags& flags);

// The filter the flags describe, or an error naming the bad flag value.
Result<pgn::GameFilter> make_game_filter(const FilterFlags& flags);

struct ReadFlags {
  int max_ply = 0;  // 0 = no limit; set the command's default before add_read_options
  int threads = 0;  // parser threads, 0 = all cores
  bool strict = false;
  std::string progress = "auto";  // never | auto (when stderr is a terminal) | always
  bool quiet = false;             // no progress line, no warnings
};

// --max-ply --threads --strict --progress --quiet
void add_read_options(CLI::App* cmd, ReadFlags& flags);

// The threads --threads asks for, as the reader counts them (0: every core). Rescoring and the
// exit positions use as many.
int read_threads(const ReadFlags& read);

// Whether a progress line goes to stderr: --progress always, or auto on a terminal; never with
// --quiet.
bool shows_progress(const ReadFlags& read);

// Everything read_games needs, including the progress printer for stderr.
Result<pgn::PipelineOptions> make_pipeline_options(const std::vector<std::string>& inputs,
                                                   const FilterFlags& filter, const ReadFlags& read);

}  // namespace bookforge::cli
