// bookforge build: PGN files in, a Polyglot book out. The games that pass the filters are
// replayed up to --max-ply and tallied per (position, move) in bounded memory; the selection
// rules pick the moves and weights; the book is written sorted, without a name, and put in
// place when complete (book/output_file.h).
//
// Rules start from a preset (--rules default|polyglot) and every rule flag given on the
// command line or in the --config file overrides it.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "book/book_builder.h"
#include "cli/memory_size.h"
#include "book/output_file.h"
#include "book/tally/prefetch_stream.h"
#include "book/selection_rules.h"
#include "book/store/from_db.h"
#include "book/tally/tally.h"
#include "cli/command.h"
#include "cli/config_file.h"
#include "cli/filter_options.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/output_path.h"
#include "cli/read_report.h"
#include "cli/rescore_options.h"
#include "pgn/pipeline.h"

namespace bookforge::cli {
namespace {

struct RuleFlags {
  std::string preset = "default";
  uint64_t min_games = 0;
  uint64_t min_move_games = 0;
  double min_move_share = 0;
  bool drop_losing = true;
  double max_score_drop = 0;
  double min_score = 0;
  std::string side;
  std::string weight;
  bool prune_unreachable = false;
  bool count_repeats = false;

  // The options, to tell which ones were given (on the command line or in the config file).
  CLI::Option* min_games_opt = nullptr;
  CLI::Option* min_move_games_opt = nullptr;
  CLI::Option* min_move_share_opt = nullptr;
  CLI::Option* drop_losing_opt = nullptr;
  CLI::Option* max_score_drop_opt = nullptr;
  CLI::Option* min_score_opt = nullptr;
  CLI::Option* side_opt = nullptr;
  CLI::Option* weight_opt = nullptr;
  CLI::Option* prune_opt = nullptr;
  CLI::Option* repeats_opt = nullptr;
  CLI::Option* max_ply_opt = nullptr;
};

struct BuildOptions {
  std::vector<std::string> inputs;
  std::string output;
  FilterFlags filter;
  ReadFlags read;
  RuleFlags rules;
  std::string memory;
  std::string tmp_dir;
  std::string report;
  std::string from_db;  // a store (db add) instead of PGN files: book/store/from_db.h
  std::string config;
  RescoreFlags rescore;      // engine rescoring of the candidates (cli/rescore_options.h)
  bool allow_empty = false;  // write a book with no entries instead of failing
};

bool given(const CLI::Option* opt) { return opt && opt->count() > 0; }

// The preset with every given flag applied on top.
Result<book::SelectionRules> resolve_rules(const RuleFlags& f, int max_ply) {
  std::optional<book::SelectionRules> preset = book::rules_preset(f.preset);
  if (!preset) return Error{"--rules: unknown preset '" + f.preset + "' (default or polyglot)"};
  book::SelectionRules r = *preset;
  if (given(f.max_ply_opt)) r.max_ply = max_ply;
  if (given(f.min_games_opt)) r.min_games = f.min_games;
  if (given(f.min_move_games_opt)) r.min_move_games = f.min_move_games;
  if (given(f.min_move_share_opt)) r.min_move_share = f.min_move_share;
  if (given(f.drop_losing_opt)) r.drop_losing = f.drop_losing;
  if (given(f.max_score_drop_opt)) r.max_score_drop = f.max_score_drop;
  if (given(f.min_score_opt)) r.min_score = f.min_score;
  if (given(f.side_opt)) r.side = *book::parse_side_filter(f.side);
  if (given(f.weight_opt)) r.weight = *book::parse_weight_kind(f.weight);
  if (given(f.prune_opt)) r.prune_unreachable = f.prune_unreachable;
  if (given(f.repeats_opt)) r.count_repeats = f.count_repeats;
  if (Status s = r.validate(); !s.ok()) return s.error();
  return r;
}

// Spills go beside the book unless told otherwise: that folder must be writable anyway.
std::string spill_folder(const BuildOptions& opts, const book::PolyglotWriter& writer) {
  return opts.tmp_dir.empty() ? writer.folder() : opts.tmp_dir;
}

struct ReportData {
  const BuildOptions* opts;
  const book::SelectionRules* rules;
  const pgn::PipelineOptions* pipeline;
  const pgn::ReadStats* read;
  book::TallyStats tally;
  int threads;
  uint64_t memory_budget;
  std::string tmp_dir;
  const book::BuildOutcome* outcome;
  double rules_seconds;
  double total_seconds;
};

std::string report_json(const ReportData& d) {
  std::string inputs;
  for (const std::string& in : d.opts->inputs) inputs += (inputs.empty() ? "" : ", ") + json_string(in);
  std::string stages;
  for (const book::StageCount& s : d.outcome->stages)
    stages += std::string(stages.empty() ? "" : ",\n    ") +
              "{\"stage\": " + json_string(std::string(s.name)) +
              ", \"positions\": " + std::to_string(s.positions) +
              ", \"entries\": " + std::to_string(s.entries) + "}";
  const book::StageCount& written = d.outcome->stages.back();
  char seconds[160];
  std::snprintf(seconds, sizeof seconds, "{\"read\": %.3f, \"rules_and_write\": %.3f, \"total\": %.3f}",
                d.read->seconds, d.rules_seconds, d.total_seconds);
  return "{\n  \"output\": " + json_string(d.opts->output) + ",\n  \"inputs\": [" + inputs +
         "],\n  \"rules\": " + json_string(d.rules->describe()) +
         ",\n  \"filters\": " + json_string(d.pipeline->filter.describe()) +
         ",\n  \"games\": " + format_read_json(*d.read) +
         ",\n  \"tally\": {\"threads\": " + std::to_string(d.threads) +
         ", \"memory_budget\": " + std::to_string(d.memory_budget) +
         ", \"tmp_dir\": " + json_string(d.tmp_dir) + ", \"games\": " + std::to_string(d.tally.games) +
         ", \"plies\": " + std::to_string(d.tally.plies) +
         ", \"repeats_skipped\": " + std::to_string(d.tally.repeats_skipped) +
         ", \"spills\": " + std::to_string(d.tally.spills) +
         ", \"spill_bytes\": " + std::to_string(d.tally.spill_bytes) +
         ", \"merge_passes\": " + std::to_string(d.tally.merge_passes) + "},\n  \"stages\": [\n    " +
         stages + "\n  ],\n  \"positions\": " + std::to_string(written.positions) +
         ",\n  \"entries\": " + std::to_string(written.entries) +
         ",\n  \"scaled_positions\": " + std::to_string(d.outcome->scaled_positions) +
         ",\n  \"seconds\": " + seconds +
         ",\n  \"peak_rss_bytes\": " + std::to_string(peak_resident_bytes()) + "\n}\n";
}

int run_build(const BuildOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  // Step 1. Rules, reading options, memory budget.
  Result<book::SelectionRules> rules = resolve_rules(opts.rules, opts.read.max_ply);
  if (!rules) {
    print_error(rules.error().message);
    return kExitUsage;
  }
  if (opts.inputs.empty() == opts.from_db.empty()) {
    print_error("give PGN files or --from-db STORE");
    return kExitUsage;
  }
  // The outputs before anything is read (the store included): a wrong path fails at once, and
  // an output that is one of the inputs never replaces it.
  std::vector<std::string> inputs = opts.inputs;
  if (!opts.from_db.empty()) inputs.push_back(opts.from_db);
  const std::vector<OutputPath> outputs{
      {"-o", opts.output}, {"--report", opts.report}, {"--suspicious", opts.rescore.suspicious}};
  Status usable = check_outputs(outputs, inputs);
  if (usable.ok()) usable = check_tmp_dir("--tmp-dir", opts.tmp_dir);
  if (!usable.ok()) {
    print_error(usable.error().message);
    return kExitUsage;
  }
  std::unique_ptr<store::StoreForBuild> from_db;
  if (!opts.from_db.empty()) {
    Result<pgn::GameFilter> filter = make_game_filter(opts.filter);
    if (!filter) {
      print_error(filter.error().message);
      return kExitUsage;
    }
    store::BuildRequest request{given(opts.rules.max_ply_opt), given(opts.rules.repeats_opt),
                                filter->empty() ? "" : filter->describe()};
    Result<std::unique_ptr<store::StoreForBuild>> opened =
        store::open_store_for_build(opts.from_db, request, *rules);
    if (!opened) {
      print_error(opened.error().message);
      return kExitFailure;
    }
    from_db = std::move(*opened);
    if (!opts.read.quiet)
      for (const std::string& w : from_db->warnings) print_warning(w);
  }
  ReadFlags read = opts.read;
  read.max_ply = rules->max_ply;
  Result<pgn::PipelineOptions> pipeline = make_pipeline_options(opts.inputs, opts.filter, read);
  if (!pipeline) {
    print_error(pipeline.error().message);
    return kExitUsage;
  }
  book::TallyOptions tally_options;
  if (int code = apply_memory_option(opts.memory, tally_options); code != kExitOk) return code;

  Result<std::unique_ptr<book::Rescorer>> rescorer = make_rescorer(opts.rescore, opts.read);
  if (!rescorer) {
    print_error(rescorer.error().message);
    return kExitUsage;
  }

  // Step 2. The output first, so that an unwritable target fails before any reading.
  Result<book::PolyglotWriter> writer = book::PolyglotWriter::create(opts.output);
  if (!writer) {
    print_error(writer.error().message);
    return kExitFailure;
  }

  // Step 3. Read and tally.
  const int threads = pgn::pipeline_threads(*pipeline);
  const std::string tmp_dir = spill_folder(opts, *writer);
  tally_options.tmp_dir = tmp_dir;
  tally_options.count_repeats = rules->count_repeats;
  tally_options.workers = threads;
  // Only a rating-weighted book reads the rating sums; without them the tally's tables are a
  // third smaller.
  tally_options.ratings = rules->weight == book::WeightKind::kRating;
  book::Tally tally(tally_options);
  Result<pgn::ReadStats> read_stats = pgn::ReadStats{};
  // The tally comes in one part per key range (two per worker), which the rules take all at
  // once; the store's scan is one stream, merged on a second core while the rules read it.
  Result<std::vector<std::unique_ptr<book::EntryStream>>> parts =
      std::vector<std::unique_ptr<book::EntryStream>>();
  std::optional<book::PrefetchStream> prefetched;
  if (from_db) {
    read_stats->accepted = from_db->games;
    Result<std::unique_ptr<book::EntryStream>> scan = from_db->store.scan();
    if (!scan) {
      print_error(scan.error().message);
      return kExitFailure;
    }
    parts->push_back(std::move(*scan));
    if (threads > 1) prefetched.emplace(*parts->front());
  } else {
    read_stats = pgn::read_games(*pipeline, [&](int i) -> pgn::GameSink& { return tally.sink(i); });
    if (!read_stats) {
      print_error(read_stats.error().message);
      return kExitFailure;
    }
    if (!read.quiet) warn_bad_games(*read_stats);
    parts = tally.finish_parts();
  }
  if (!parts) {
    print_error(parts.error().message);
    return kExitFailure;
  }
  std::vector<book::EntryStream*> selected;
  if (prefetched)
    selected.push_back(&*prefetched);
  else
    for (const auto& part : *parts) selected.push_back(part.get());

  // Step 4. Rules (and engine rescoring) and writing, one position at a time.
  const double rules_start = elapsed();
  Result<book::BuildOutcome> outcome = book::build_book(selected, *rules, rescorer->get(), *writer);
  if (!outcome) {
    print_error(outcome.error().message);
    return kExitFailure;
  }
  // An empty book is almost always a mistake (filters or rules too strict): say why, and write
  // nothing unless asked to.
  if (outcome->stages.back().entries == 0 && !opts.allow_empty) {
    const std::string why = read_stats->accepted > 0
                                ? "the selection rules kept no move of the " +
                                      std::to_string(read_stats->accepted) + " game(s) kept"
                            : from_db ? "the store holds no game"
                                      : describe_no_game_kept(*read_stats);
    print_error(opts.output + ": empty book not written: " + why + " (--allow-empty writes it anyway)");
    return kExitFailure;
  }
  if (Result<uint64_t> committed = writer->commit(); !committed) {
    print_error(committed.error().message);
    return kExitFailure;
  }
  if (*rescorer)
    if (Status s = finish_rescore(opts.rescore, **rescorer, read.quiet); !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }
  const double total = elapsed();

  // Step 5. Report.
  const book::TallyStats tally_stats = tally.stats();
  if (!opts.report.empty()) {
    ReportData data{&opts,
                    rules.operator->(),
                    pipeline.operator->(),
                    read_stats.operator->(),
                    tally_stats,
                    threads,
                    tally_options.memory_budget,
                    tmp_dir,
                    outcome.operator->(),
                    total - rules_start,
                    total};
    if (Status s = book::write_output_file(opts.report, report_json(data)); !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }
  }
  if (!read.quiet) {
    const book::StageCount& written = outcome->stages.back();
    std::printf("%s: %llu entries, %llu positions from %llu games (%llu spills) in %.2f s\n",
                opts.output.c_str(), static_cast<unsigned long long>(written.entries),
                static_cast<unsigned long long>(written.positions),
                static_cast<unsigned long long>(read_stats->accepted),
                static_cast<unsigned long long>(tally_stats.spills), total);
  }
  return kExitOk;
}

void add_rule_options(CLI::App* cmd, RuleFlags& r) {
  const std::string group = "Selection rules";
  cmd->add_option(
         "--rules", r.preset,
         "Preset the other rule flags start from: default (the article's), or polyglot "
         "(polyglot make-book: repeats counted, weight 2W+D, moves that only lost dropped, max-ply 1024, "
         "min-move-games 3, no position or share rules)")
      ->check(CLI::IsMember({"default", "polyglot"}))
      ->capture_default_str()
      ->group(group);
  r.min_games_opt =
      cmd->add_option("--min-games", r.min_games,
                      "A position must have been reached this often (sum of its moves' games) [3]")
          ->transform(whole_number(0, kNoLimit))
          ->group(group);
  r.min_move_games_opt = cmd->add_option("--min-move-games", r.min_move_games,
                                         "Keep a move played at least this often ... [100]")
                             ->transform(whole_number(0, kNoLimit))
                             ->group(group);
  r.min_move_share_opt = cmd->add_option("--min-move-share", r.min_move_share,
                                         "... or in at least this percentage of the position's games [10]; "
                                         "above 100 turns the share test off")
                             ->transform(decimal_number(0))
                             ->group(group);
  r.drop_losing_opt = cmd->add_flag("--drop-losing,!--no-drop-losing", r.drop_losing,
                                    "Drop moves that never scored better than a loss [on]")
                          ->group(group);
  r.max_score_drop_opt =
      cmd->add_option("--max-score-drop", r.max_score_drop,
                      "Drop a move scoring more than this many percentage points below the position's "
                      "average, from the mover's view [10]; above 100 turns it off")
          ->transform(decimal_number(0))
          ->group(group);
  r.min_score_opt =
      cmd->add_option("--min-score", r.min_score, "A move must score at least this percentage [0]")
          ->transform(decimal_number(0, 100))
          ->group(group);
  r.side_opt = cmd->add_option("--side", r.side, "Only positions with this side to move get entries [both]")
                   ->check(CLI::IsMember({"white", "black", "both"}))
                   ->group(group);
  r.weight_opt = cmd->add_option("--weight", r.weight,
                                 "games, score (2W+D as Polyglot), uniform, or rating (games weighted by the "
                                 "mover's rating) [games]")
                     ->check(CLI::IsMember({"games", "score", "uniform", "rating"}))
                     ->group(group);
  r.prune_opt = cmd->add_flag("--prune-unreachable", r.prune_unreachable,
                              "Keep only positions reachable from the start position through kept moves")
                    ->group(group);
  r.repeats_opt =
      cmd->add_flag("--count-repeats,!--no-count-repeats", r.count_repeats,
                    "Count a move every time a game repeats it (as Polyglot does), not once per game "
                    "[off; on with --rules polyglot]")
          ->group(group);
}

void setup_build(CLI::App& root) {
  auto opts = std::make_shared<BuildOptions>();
  CLI::App* cmd = add_subcommand(root, "build", "Build a Polyglot opening book from PGN files");
  CLI::Option* files = cmd->add_option("files", opts->inputs,
                                       "PGN files: plain, gzip, bzip2, xz or zstd ('-' = standard input)");
  cmd->add_option("-o,--output", opts->output, "The book to write (.bin)")->required();
  add_filter_options(cmd, opts->filter);
  opts->read.max_ply = 60;
  add_read_options(cmd, opts->read);
  opts->rules.max_ply_opt = cmd->get_option("--max-ply");
  add_rule_options(cmd, opts->rules);
  add_memory_option(*cmd, opts->memory);
  cmd->add_option("--tmp-dir", opts->tmp_dir, "Folder for spilled runs (default: the book's folder)");
  cmd->add_option("--from-db", opts->from_db,
                  "Build from a store made by `db add` instead of PGN files (its filters, max-ply and repeat "
                  "counting apply)")
      ->excludes(files);
  add_rescore_options(cmd, opts->rescore);
  cmd->add_flag("--allow-empty", opts->allow_empty,
                "Write the book even when no game or no move was kept (otherwise that is an error)");
  cmd->add_option("--report", opts->report,
                  "Write a JSON report: games, rules stage by stage, spills, time, memory");
  cmd->add_option("--config", opts->config,
                  "Read flags from a TOML file, e.g. data-samples/rules/broad.toml (the command line wins)");
  cmd->callback([cmd, opts] {
    if (!opts->config.empty()) apply_config_file(*cmd, opts->config);
    set_exit_code(run_build(*opts));
  });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("build", setup_build);

}  // namespace bookforge::cli
