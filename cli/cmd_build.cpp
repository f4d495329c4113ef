// bookforge build: PGN files in, a Polyglot book out. The games that pass the filters are
// replayed up to --max-ply and tallied per (position, move) in bounded memory; the selection
// rules pick the moves and weights; the book is written sorted, without a name, and put in
// place when complete (base/output_file.h).
//
// Rules start from a preset (--rules default|polyglot) and every rule flag given on the
// command line or in the --config file overrides it.
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/batch.h"
#include "base/output_file.h"
#include "book/build.h"
#include "book/selection_rules.h"
#include "cli/command.h"
#include "cli/config_file.h"
#include "cli/enum_option.h"
#include "cli/exit_options.h"
#include "cli/filter_options.h"
#include "cli/help_default.h"
#include "cli/memory_option.h"
#include "cli/memory_size.h"
#include "cli/number_option.h"
#include "cli/output_path.h"
#include "cli/read_report.h"
#include "cli/rescore_options.h"
#include "cli/slice_options.h"
#include "counts/counts_set.h"
#include "json/build_json.h"
#include "pgn/pipeline.h"

namespace bookforge::cli {
namespace {

// The rule flags: each one given (on the command line or in the config file) overrides the
// preset's value. A flag writes into `given`, and its override copies that field over the
// preset, so a new rule is one add_rule() call in add_rule_options.
struct RuleFlags {
  std::string preset = "default";
  book::SelectionRules given;  // what the flags wrote
  struct Override {
    CLI::Option* option;
    std::function<void(book::SelectionRules& rules, const book::SelectionRules& given)> apply;
  };
  std::vector<Override> overrides;
  CLI::Option* max_ply_opt = nullptr;  // --max-ply, a read flag the rules take over
  CLI::Option* repeats_opt = nullptr;
  CLI::Option* duplicates_opt = nullptr;  // --keep-duplicates, for PGN files only
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
  std::string from_db;                   // a store (db add) instead of PGN files: book/from_db.h
  SliceFlags slices;                     // with from_db: a slice of the store's games
  std::vector<std::string> from_counts;  // sets made by `count`: book/counts_for_build.h
  std::string key_range;                 // with from_counts: "r/K", one range of the book
  std::string config;
  RescoreFlags rescore;      // engine rescoring of the candidates (cli/rescore_options.h)
  ExitFlags exits;           // the book's exit positions as EPD (cli/exit_options.h)
  bool allow_empty = false;  // write a book with no entries instead of failing
};

bool given(const CLI::Option* opt) { return opt && opt->count() > 0; }

// The preset with every given flag applied on top.
Result<book::SelectionRules> resolve_rules(const RuleFlags& f, int max_ply) {
  std::optional<book::SelectionRules> preset = book::rules_preset(f.preset);
  if (!preset) return Error{"--rules: unknown preset '" + f.preset + "' (default or polyglot)"};
  book::SelectionRules r = *preset;
  if (given(f.max_ply_opt)) r.max_ply = max_ply;
  for (const RuleFlags::Override& o : f.overrides)
    if (given(o.option)) o.apply(r, f.given);
  if (Status s = r.validate(); !s.ok()) return s.error();
  return r;
}

// For the summary line: the copies dropped, when PGN was read and they were.
std::string duplicates_summary(const BuildOptions& opts, const book::BuildReport& report) {
  if (!opts.from_db.empty() || report.rules.keep_duplicates) return "";
  return std::to_string(report.duplicates_dropped) + " duplicates dropped, ";
}

// -o, or --rescore-plan and nothing that needs a book.
Status check_plan_flags(const BuildOptions& opts) {
  if (opts.rescore.plan.empty())
    return opts.output.empty() ? Status(Error{"-o (the book to write) is required"}) : ok_status();
  for (const OutputPath& o :
       {OutputPath{"-o", opts.output}, OutputPath{"--suspicious", opts.rescore.suspicious},
        OutputPath{"--exits", opts.exits.path}, OutputPath{"--report", opts.report}})
    if (!o.path.empty())
      return Error{o.option + ": --rescore-plan writes a plan and no book: leave out " + o.option};
  return ok_status();
}

// --key-range r/K: one range of a book built from counts. The rules that look beyond one
// position (reachability, rescoring, which searches the reachable positions, and the exits)
// need the whole book.
Result<std::pair<uint32_t, uint32_t>> parse_key_range(const BuildOptions& opts,
                                                      const book::SelectionRules& rules) {
  Result<Batch> range = parse_batch(opts.key_range);
  if (!range) return Error{"--key-range " + range.error().message};
  if (Status s = counts::check_partitions(range->count); !s.ok())
    return Error{"--key-range " + opts.key_range + ": K must be a power of two (the sets' ranges)"};
  if (opts.from_counts.empty()) return Error{"--key-range needs --from-counts"};
  if (rules.prune_unreachable || !opts.exits.path.empty() || opts.rescore.depth > 0 || opts.rescore.nodes > 0)
    return Error{
        "--key-range builds one range of the book: --prune-unreachable, rescoring and --exits need "
        "the whole book"};
  return std::pair{range->index, range->count};
}

int run_build(const BuildOptions& opts) {
  const auto start = std::chrono::steady_clock::now();

  // Step 1. The request from the flags: rules, inputs, outputs, memory, rescoring.
  Result<book::SelectionRules> rules = resolve_rules(opts.rules, opts.read.max_ply);
  if (!rules) {
    print_error(rules.error().message);
    return kExitUsage;
  }
  if (int(!opts.inputs.empty()) + int(!opts.from_db.empty()) + int(!opts.from_counts.empty()) != 1) {
    print_error("give PGN files, --from-db STORE or --from-counts SETS");
    return kExitUsage;
  }
  if (Status s = check_plan_flags(opts); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  // The outputs before anything is read (the store included): a wrong path fails at once, and
  // an output that is one of the inputs never replaces it.
  std::vector<std::string> inputs = opts.inputs;
  if (!opts.from_db.empty()) inputs.push_back(opts.from_db);
  inputs.insert(inputs.end(), opts.from_counts.begin(), opts.from_counts.end());
  const std::vector<OutputPath> outputs{{"-o", opts.output},
                                        {"--report", opts.report},
                                        {"--suspicious", opts.rescore.suspicious},
                                        {"--exits", opts.exits.path},
                                        {"--rescore-plan", opts.rescore.plan}};
  Status usable = check_outputs(outputs, inputs);
  if (usable.ok()) usable = check_tmp_dir("--tmp-dir", opts.tmp_dir);
  if (!usable.ok()) {
    print_error(usable.error().message);
    return kExitUsage;
  }
  book::BuildRequest request;
  request.output = opts.output;
  request.from_db = opts.from_db;
  Result<counts::SliceFilter> slices = slice_filter(opts.slices);
  if (!slices) {
    print_error(slices.error().message);
    return kExitUsage;
  }
  if (!slices->empty() && opts.from_db.empty()) {
    print_error(
        "--speeds, --ratings, --since and --until select games of a store: give --from-db (for PGN "
        "files, --speed, --min-avg-elo and --date-from/--date-to filter the games)");
    return kExitUsage;
  }
  request.from_db_slices = *slices;
  request.rules = *rules;
  request.max_ply_given = given(opts.rules.max_ply_opt);
  request.count_repeats_given = given(opts.rules.repeats_opt);
  request.keep_duplicates_given = given(opts.rules.duplicates_opt);
  request.from_counts = opts.from_counts;
  if (!opts.key_range.empty()) {
    Result<std::pair<uint32_t, uint32_t>> range = parse_key_range(opts, *rules);
    if (!range) {
      print_error(range.error().message);
      return kExitUsage;
    }
    std::tie(request.key_range, request.key_ranges) = *range;
  }
  request.allow_empty = opts.allow_empty;
  Result<pgn::PipelineOptions> pipeline = make_pipeline_options(opts.inputs, opts.filter, opts.read);
  if (!pipeline) {
    print_error(pipeline.error().message);
    return kExitUsage;
  }
  request.pipeline = *pipeline;
  if (int code = apply_memory_option(opts.memory, request.tally); code != kExitOk) return code;
  request.tally.tmp_dir = opts.tmp_dir;
  Result<std::optional<book::RescoreOptions>> rescore = make_rescore_options(opts.rescore, opts.read);
  if (!rescore) {
    print_error(rescore.error().message);
    return kExitUsage;
  }
  request.rescore = std::move(*rescore);
  request.rescore_plan = opts.rescore.plan;
  request.rescore_verdicts = opts.rescore.verdicts;
  Result<std::optional<book::ExitOptions>> exits = make_exit_options(opts.exits, opts.read);
  if (!exits) {
    print_error(exits.error().message);
    return kExitUsage;
  }
  if (*exits && !(*exits)->engine_path.empty())
    if (Status s = book::check_exit_engine(**exits); !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }

  // Step 2. The build: read, count, rules, rescoring, the book.
  Result<book::BuildReport> built = book::build(request);
  if (!built) {
    print_error(built.error().message);
    return kExitFailure;
  }
  const book::BuildReport& report = *built;
  if (!opts.read.quiet) {
    for (const std::string& w : report.warnings) print_warning(w);
    if (opts.from_db.empty()) warn_bad_games(report.read);
  }
  if (!opts.rescore.plan.empty()) {
    if (!opts.read.quiet) print_plan_summary(opts.rescore, *request.rescore, report.planned);
    return kExitOk;
  }
  // An empty book is almost always a mistake (filters or rules too strict): say why.
  if (!report.written) {
    const std::string why =
        !opts.from_db.empty() && !request.from_db_slices.empty()
            ? "the selection rules kept no move of the store's games of " + request.from_db_slices.describe()
        : report.read.accepted > 0 ? "the selection rules kept no move of the " +
                                         std::to_string(report.read.accepted) + " game(s) kept"
        : !opts.from_db.empty() ? "the store holds no game"
                                : describe_no_game_kept(report.read);
    print_error(opts.output + ": empty book not written: " + why + " (--allow-empty writes it anyway)");
    return kExitFailure;
  }
  if (report.rescore)
    if (Status s = finish_rescore(opts.rescore, *report.rescore, report.suspicious, opts.read.quiet);
        !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }
  if (*exits)
    if (Status s = write_exits(opts.exits.path, **exits, opts.output, opts.read.quiet); !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Step 3. Report.
  if (!opts.report.empty()) {
    const json::BuildReportView view{report,
                                     opts.output,
                                     opts.inputs,
                                     request.pipeline.filter.describe(),
                                     request.from_db_slices.describe(),
                                     !opts.from_db.empty(),
                                     request.tally.memory_budget,
                                     total,
                                     peak_resident_bytes()};
    if (Status s = write_output_file(opts.report, json::json_text(json::to_json(view), 2) + "\n"); !s.ok()) {
      print_error(s.error().message);
      return kExitFailure;
    }
  }
  if (!opts.read.quiet) {
    const book::StageCount& written = report.outcome.stages.back();
    std::printf("%s: %llu entries, %llu positions from %llu games (%s%llu spills) in %.2f s\n",
                opts.output.c_str(), static_cast<unsigned long long>(written.entries),
                static_cast<unsigned long long>(written.positions),
                static_cast<unsigned long long>(report.read.accepted - report.duplicates_dropped),
                duplicates_summary(opts, report).c_str(),
                static_cast<unsigned long long>(report.tally.spills), total);
  }
  return kExitOk;
}

// Makes `option` override the preset's `field` with what it wrote into r.given, when given.
template <class T>
CLI::Option* overrides(RuleFlags& r, CLI::Option* option, T book::SelectionRules::*field) {
  option->group("Selection rules");
  r.overrides.push_back({option, [field](book::SelectionRules& rules, const book::SelectionRules& given) {
                           rules.*field = given.*field;
                         }});
  return option;
}

// A rule flag bound to a field of SelectionRules.
template <class T>
CLI::Option* add_rule(CLI::App* cmd, RuleFlags& r, const std::string& name, T book::SelectionRules::*field,
                      const std::string& help) {
  return overrides(r, cmd->add_option(name, r.given.*field, help), field);
}

// An on/off rule flag ("--x,!--no-x") bound to a field of SelectionRules.
CLI::Option* add_rule_switch(CLI::App* cmd, RuleFlags& r, const std::string& names,
                             bool book::SelectionRules::*field, const std::string& help) {
  return overrides(r, cmd->add_flag(names, r.given.*field, help), field);
}

void add_rule_options(CLI::App* cmd, RuleFlags& r) {
  using book::SelectionRules;
  const SelectionRules defaults;
  cmd->add_option(
         "--rules", r.preset,
         "Preset the other rule flags start from: default (bookforge's: moves strong players play and that "
         "score, by position and share rules), or polyglot "
         "(polyglot make-book: repeats and every copy of a game counted, weight 2W+D, moves that only lost "
         "dropped, max-ply 1024, min-move-games 3, no position or share rules)")
      ->check(CLI::IsMember({"default", "polyglot"}))
      ->capture_default_str()
      ->group("Selection rules");
  add_rule(cmd, r, "--min-games", &SelectionRules::min_games,
           "A position must have been reached this often (sum of its moves' games) " +
               shown(double(defaults.min_games)))
      ->transform(whole_number(0, kNoLimit));
  add_rule(cmd, r, "--min-move-games", &SelectionRules::min_move_games,
           "Keep a move played at least this often ... " + shown(double(defaults.min_move_games)))
      ->transform(whole_number(0, kNoLimit));
  add_rule(cmd, r, "--min-move-share", &SelectionRules::min_move_share,
           "... or in at least this percentage of the position's games " + shown(defaults.min_move_share) +
               "; above 100 turns the share test off")
      ->transform(decimal_number(0));
  add_rule_switch(cmd, r, "--drop-losing,!--no-drop-losing", &SelectionRules::drop_losing,
                  "Drop moves that never scored better than a loss " + shown(defaults.drop_losing));
  add_rule(cmd, r, "--max-score-drop", &SelectionRules::max_score_drop,
           "Drop a move scoring more than this many percentage points below the position's average, from the "
           "mover's view " +
               shown(defaults.max_score_drop) + "; above 100 turns it off")
      ->transform(decimal_number(0));
  add_rule(cmd, r, "--min-score", &SelectionRules::min_score,
           "A move must score at least this percentage " + shown(defaults.min_score))
      ->transform(decimal_number(0, 100));
  add_rule(
      cmd, r, "--side", &SelectionRules::side,
      "Only positions with this side to move get entries " + shown(book::side_filter_name(defaults.side)))
      ->transform(enum_names(book::parse_side_filter, "white, black or both"));
  add_rule(cmd, r, "--weight", &SelectionRules::weight,
           "games, score (2W+D as Polyglot), uniform, or rating (games weighted by the mover's rating) " +
               shown(book::weight_kind_name(defaults.weight)))
      ->transform(enum_names(book::parse_weight_kind, kWeightChoices));
  add_rule_switch(cmd, r, "--prune-unreachable", &SelectionRules::prune_unreachable,
                  "Keep only positions reachable from the start position through kept moves");
  r.repeats_opt =
      add_rule_switch(cmd, r, "--count-repeats,!--no-count-repeats", &SelectionRules::count_repeats,
                      "Count a move every time a game repeats it (as Polyglot does), not once per "
                      "game [off; on with --rules polyglot]");
  r.duplicates_opt = add_rule_switch(
      cmd, r, "--keep-duplicates,!--drop-duplicates", &SelectionRules::keep_duplicates,
      "Count every copy of a game (as Polyglot does), or, with --drop-duplicates, a game found again (same "
      "players, date, result, moves, ratings, time control and start) once [drop; keep with --rules "
      "polyglot]");
}

void setup_build(CLI::App& root) {
  auto opts = std::make_shared<BuildOptions>();
  CLI::App* cmd = add_subcommand(root, "build", "Build a Polyglot opening book from PGN files");
  CLI::Option* files = cmd->add_option("files", opts->inputs,
                                       "PGN files: plain, gzip, bzip2, xz or zstd ('-' = standard input)");
  cmd->add_option("-o,--output", opts->output, "The book to write (.bin); required unless --rescore-plan");
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
  cmd->add_option(
         "--from-counts", opts->from_counts,
         "Build from sets of counts made by `bookforge count` instead of PGN files: the same book as "
         "from the PGN they counted (their max-ply, repeat counting, duplicates and filters apply)")
      ->excludes(files)
      ->excludes("--from-db");
  cmd->add_option("--key-range", opts->key_range,
                  "With --from-counts, only the entries of key range r of K (r/K, K a power of two, at most "
                  "every set's): the K books, concatenated in range order, are the whole book (a task a "
                  "range on a cluster); not with --prune-unreachable, rescoring or --exits");
  add_slice_options(*cmd, opts->slices, /*variant_flag=*/false);
  add_rescore_options(cmd, opts->rescore);
  add_exit_options(cmd, opts->exits);
  cmd->add_flag("--allow-empty", opts->allow_empty,
                "Write the book even when no game or no move was kept (otherwise that is an error)");
  // A store's games were counted when added: only `db add` decides about their copies.
  opts->rules.duplicates_opt->excludes("--from-db");
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
