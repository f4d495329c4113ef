// bookforge count: the map and reduce steps of a build spread over machines
// (docs: DESIGN.md, "Beyond one machine"). Three forms, one per step:
//
//   count FILES -o SET --partitions K [--part i/N] [--skip-games LIST]   count PGN into a set
//   count --merge SETS -o SET --partitions K                            add sets into one
//   count --merge SETS -o SET --partitions K --range r | --game-list    the same, a task a range
//   count --find-duplicates SETS -o FOLDER                              the sets' skip lists
//
// and `build --from-counts SETS` makes the book from the sets, byte-identical to `build FILES`;
// sets counted `--for store` also make the store (`db add --from-counts SETS`).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "book/counts_for_build.h"
#include "book/selection_rules.h"
#include "cli/command.h"
#include "cli/enum_option.h"
#include "cli/filter_options.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/output_path.h"
#include "cli/read_report.h"
#include "counts/count_to_set.h"
#include "counts/counts_set.h"
#include "store/set_games.h"

namespace bookforge::cli {
namespace {

struct CountOptions {
  std::vector<std::string> inputs;  // PGN files, or sets with --merge / --find-duplicates
  std::string output;
  counts::CountsFor counts_for = counts::CountsFor::kBook;
  bool merge = false;
  bool find_duplicates = false;
  int range = -1;          // with --merge: write only this range of the merged set
  bool game_list = false;  // with --merge: write only the merged set's game list, last
  unsigned partitions = 1;
  std::string part;
  std::string skip_games;
  bool count_repeats = false;
  bool keep_duplicates = false;
  int game_plies = 0;  // --for store: 0 for the default
  FilterFlags filter;
  ReadFlags read;
  std::string memory;
  std::string tmp_dir;
  std::string rules;  // a preset of build's: its max-ply, repeat counting and duplicates
  book::WeightKind weight = book::SelectionRules{}.weight;  // build's: whether a book's counts keep ratings
  CLI::Option* max_ply_flag = nullptr;
  CLI::Option* repeats_flag = nullptr;
  CLI::Option* duplicates_flag = nullptr;
  std::vector<CLI::Option*> counting_only;  // flags of the first form only
};

// What --rules NAME sets: the counting of the build that preset makes, where the flags do not
// say otherwise (so `count --rules polyglot` counts as `build --rules polyglot` does).
void apply_rules_preset(CountOptions& opts) {
  if (opts.rules.empty()) return;
  const std::optional<book::SelectionRules> preset = book::rules_preset(opts.rules);
  if (!preset) return;  // the option's check names the presets
  if (opts.max_ply_flag->count() == 0) opts.read.max_ply = preset->max_ply;
  if (opts.repeats_flag->count() == 0) opts.count_repeats = preset->count_repeats;
  if (opts.duplicates_flag->count() == 0) opts.keep_duplicates = preset->keep_duplicates;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_set_summary(const CountOptions& opts, const counts::CountsHeader& h, uint64_t bytes,
                       double seconds) {
  if (opts.read.quiet) return;
  std::printf(
      "%s: %u range(s), %llu bytes, %.1f bytes a game, from %llu games (%llu duplicates dropped, %llu "
      "skipped) in %.2f s\n",
      opts.output.c_str(), h.partitions, static_cast<unsigned long long>(bytes),
      h.games_kept ? double(bytes) / double(h.games_kept) : 0.0,
      static_cast<unsigned long long>(h.games_kept), static_cast<unsigned long long>(h.duplicates_dropped),
      static_cast<unsigned long long>(h.games_skipped), seconds);
}

int run_count_games(CountOptions opts) {
  const auto start = std::chrono::steady_clock::now();
  if (Status s = counts::check_partitions(opts.partitions); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  apply_rules_preset(opts);
  counts::CountRequest request;
  request.output = opts.output;
  request.partitions = opts.partitions;
  request.counts_for = opts.counts_for;
  book::SelectionRules rules;
  rules.weight = opts.weight;
  request.ratings = rules.needs_ratings();
  request.count_repeats = opts.count_repeats;
  request.keep_duplicates = opts.keep_duplicates;
  if (!opts.part.empty()) {
    Result<counts::InputPart> part = counts::parse_input_part(opts.part);
    if (!part) {
      print_error(part.error().message);
      return kExitUsage;
    }
    request.part = *part;
  }
  if (!opts.skip_games.empty()) {
    Result<counts::GameList> skip = counts::read_game_list(opts.skip_games);
    if (!skip) {
      print_error(skip.error().message);
      return kExitUsage;
    }
    request.skip = std::move(skip->fingerprints);
  }
  if (Status s = check_tmp_dir("--tmp-dir", opts.tmp_dir); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  if (int code = apply_memory_option(opts.memory, request.tally); code != kExitOk) return code;
  request.tally.tmp_dir = opts.tmp_dir;
  Result<pgn::PipelineOptions> pipeline = make_pipeline_options(opts.inputs, opts.filter, opts.read);
  if (!pipeline) {
    print_error(pipeline.error().message);
    return kExitUsage;
  }
  request.pipeline = std::move(*pipeline);
  // Counted for a store: the store's games too (store/set_games.h), with their share of --memory.
  std::optional<store::SetGamesWriter> store_games;
  if (opts.counts_for == counts::CountsFor::kStore) {
    request.tally.workers = pgn::pipeline_threads(request.pipeline);
    const uint64_t memory = store::take_references_memory(request.tally);
    store_games.emplace(opts.game_plies > 0 ? opts.game_plies : store::kDefaultGamePlies, memory,
                        request.tally.workers, opts.tmp_dir.empty() ? opts.output : opts.tmp_dir);
    request.extras = &*store_games;
  } else if (opts.game_plies > 0) {
    print_error("--game-plies is what a store keeps of its games: it needs --for store");
    return kExitUsage;
  }

  Result<counts::CountReport> counted = counts::count_to_set(request);
  if (!counted) {
    print_error(counted.error().message);
    return kExitFailure;
  }
  if (!opts.read.quiet) warn_bad_games(counted->read);
  print_set_summary(opts, counted->header, counted->bytes, seconds_since(start));
  return kExitOk;
}

// One reduce task of a merge spread over machines: range `opts.range` of the merged set, into a
// folder the other tasks write their ranges into too. The sets' games are not compared here
// (that reads every game list): the set is complete only once --game-list has compared them.
int run_merge_range(const CountOptions& opts) {
  Result<std::vector<counts::CountsSet>> opened = counts::open_combinable_sets(opts.inputs);
  if (!opened) {
    print_error(opened.error().message);
    return kExitFailure;
  }
  std::vector<counts::CountsSet>& sets = *opened;
  const uint32_t finest = counts::finest_common_partitions(sets);
  if (opts.partitions > finest || uint32_t(opts.range) >= opts.partitions) {
    print_error("--range " + std::to_string(opts.range) + " of --partitions " +
                std::to_string(opts.partitions) + ": a range of at most the sets' smallest K (" +
                std::to_string(finest) + ") is needed");
    return kExitUsage;
  }
  if (Status s = counts::prepare_range_folder(opts.output); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  counts::CountsHeader header = counts::combined_header(sets);
  header.partitions = opts.partitions;
  std::vector<std::unique_ptr<counts::EntryStream>> groups = counts::summed_groups(sets, opts.partitions);
  Result<uint64_t> bytes =
      counts::write_ranges(opts.output, header, *groups[opts.range], opts.range, opts.range + 1);
  if (!bytes) {
    print_error(bytes.error().message);
    return kExitFailure;
  }
  return kExitOk;
}

// The last reduce task: the merged set's game list, once every range is written; the sets'
// games are compared as a whole merge compares them.
int run_merge_game_list(const CountOptions& opts) {
  counts::SharedGames games;
  Result<std::vector<counts::CountsSet>> sets = counts::open_sets_to_add(opts.inputs, &games);
  if (!sets) {
    print_error(sets.error().message);
    return kExitFailure;
  }
  counts::CountsHeader header = counts::combined_header(*sets);
  header.partitions = opts.partitions;
  if (Status s = counts::finish_set(opts.output, header, games.all); !s.ok()) {
    print_error(s.error().message);
    return kExitFailure;
  }
  return kExitOk;
}

int run_merge(const CountOptions& opts) {
  if (Status s = counts::check_partitions(opts.partitions); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  if (opts.range >= 0 && opts.game_list) {
    print_error("--range and --game-list are two different tasks of a merge: give one");
    return kExitUsage;
  }
  if (opts.range >= 0) return run_merge_range(opts);
  if (opts.game_list) return run_merge_game_list(opts);
  const auto start = std::chrono::steady_clock::now();
  counts::SharedGames games;
  Result<std::vector<counts::CountsSet>> sets = counts::open_sets_to_add(opts.inputs, &games);
  if (!sets) {
    print_error(sets.error().message);
    return kExitFailure;
  }
  if (Status ready = counts::prepare_set_folder(opts.output); !ready.ok()) {
    print_error(ready.error().message);
    return kExitUsage;
  }
  counts::CountsHeader header = counts::combined_header(*sets);
  header.partitions = opts.partitions;
  const uint32_t groups = std::min<uint32_t>(counts::finest_common_partitions(*sets), opts.partitions);
  Result<uint64_t> bytes = counts::write_set(opts.output, header, counts::summed_groups(*sets, groups),
                                             games.all, read_threads(opts.read));
  if (!bytes) {
    print_error(bytes.error().message);
    return kExitFailure;
  }
  print_set_summary(opts, header, *bytes, seconds_since(start));
  return kExitOk;
}

int run_find_duplicates(const CountOptions& opts) {
  Result<std::vector<counts::CountsSet>> opened = counts::open_combinable_sets(opts.inputs);
  if (!opened) {
    print_error(opened.error().message);
    return kExitFailure;
  }
  std::vector<counts::CountsSet>& sets = *opened;
  Result<counts::SharedGames> shared = counts::shared_games(sets);
  Status ready = shared ? counts::prepare_set_folder(opts.output) : Status(shared.error());
  if (!ready.ok()) {
    print_error(ready.error().message);
    return kExitFailure;
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    const counts::GameList& skip = shared->skip[s];
    if (skip.fingerprints.empty()) continue;
    char name[64];
    std::snprintf(name, sizeof name, "skip-%04zu.fingerprints", s);
    const std::string path = (std::filesystem::path(opts.output) / name).string();
    if (Status w = counts::write_game_list(path, skip); !w.ok()) {
      print_error(w.error().message);
      return kExitFailure;
    }
    if (!opts.read.quiet)
      std::printf("%s: %zu game(s) counted in an earlier set: count it again with --skip-games %s\n",
                  sets[s].dir.c_str(), skip.fingerprints.size(), path.c_str());
  }
  if (!opts.read.quiet && shared->games == 0) std::printf("no game is counted in two sets\n");
  return kExitOk;
}

int run_count(const CountOptions& opts) {
  if (opts.merge && opts.find_duplicates) {
    print_error("--merge and --find-duplicates are two different steps: give one");
    return kExitUsage;
  }
  if (!opts.merge && (opts.range >= 0 || opts.game_list)) {
    print_error("--range and --game-list are tasks of a merge: give --merge");
    return kExitUsage;
  }
  if (opts.merge || opts.find_duplicates) {
    for (const CLI::Option* o : opts.counting_only)
      if (o->count() > 0) {
        print_error(
            o->get_name() + " shapes the counting of PGN files; " +
            (opts.merge ? "--merge adds sets up as they were counted" : "--find-duplicates reads sets"));
        return kExitUsage;
      }
    return opts.merge ? run_merge(opts) : run_find_duplicates(opts);
  }
  return run_count_games(opts);
}

void setup_count(CLI::App& root) {
  auto opts = std::make_shared<CountOptions>();
  CLI::App* cmd = add_subcommand(
      root, "count",
      "Count PGN files into a set of counts files, for a build spread over machines:\n"
      "  count FILES -o SET --partitions K [--part i/N] [--skip-games LIST]  (map: one task per shard)\n"
      "  count --merge SETS -o SET --partitions K                           (reduce: sets added up)\n"
      "  count --merge SETS -o SET --partitions K --range r, then --game-list  (the reduce, a task per "
      "range)\n"
      "  count --find-duplicates SETS -o FOLDER   (skip lists for games counted in two sets)\n"
      "then `build --from-counts SETS -o book.bin`, byte-identical to `build FILES`");
  cmd->add_option(
         "files", opts->inputs,
         "PGN files (plain, gzip, bzip2, xz or zstd; '-' = standard input), or sets with --merge and "
         "--find-duplicates")
      ->required();
  cmd->add_option("-o,--output", opts->output,
                  "The set's folder (new or empty), or the folder of the skip lists with --find-duplicates")
      ->required();
  cmd->add_flag("--merge", opts->merge, "Add the sets given up into one set (their games must differ)");
  cmd->add_option("--range", opts->range,
                  "With --merge, a merge spread over machines: write only this key range of the merged set "
                  "(one task per range, all into the same folder), then the set's game list with --game-list")
      ->transform(whole_number(0, int(counts::kMaxCountsPartitions) - 1));
  cmd->add_flag("--game-list", opts->game_list,
                "With --merge, after every --range task: compare the sets' games and write the merged set's "
                "game list, which makes it complete");
  cmd->add_flag("--find-duplicates", opts->find_duplicates,
                "Write, for every set after the first that holds a game, the list of such games: count that "
                "set again with --skip-games LIST");
  cmd->add_option("--partitions", opts->partitions,
                  "Key ranges, one file each: a power of two from 1 to 4096 (range r holds the keys k with "
                  "k*K/2^64 == r, so sets of any K add up) [1]")
      ->transform(whole_number(1, int(counts::kMaxCountsPartitions)));
  opts->counting_only.push_back(
      cmd->add_option("--for", opts->counts_for,
                      "What the counts are for: book (the players' ratings only: smaller and faster made) or "
                      "store (the store's slices and the opponents' ratings too: for db add --from-counts, "
                      "and build --from-counts as well) [book]")
          ->transform(CLI::CheckedTransformer(
              std::map<std::string, counts::CountsFor>{{"book", counts::CountsFor::kBook},
                                                       {"store", counts::CountsFor::kStore}},
              CLI::ignore_case)));
  opts->counting_only.push_back(
      cmd->add_option(
             "--game-plies", opts->game_plies,
             "With --for store: positions up to this ply of each game keep their top and recent games, "
             "as db add --game-plies [" +
                 std::to_string(store::kDefaultGamePlies) + "]")
          ->transform(whole_number(1, 1000)));
  opts->counting_only.push_back(cmd->add_option(
      "--part", opts->part,
      "Count only the games that start in the i-th (from 0) of N equal byte ranges of each input's "
      "decompressed stream; the N parts count exactly what the whole does"));
  opts->counting_only.push_back(cmd->add_option(
      "--skip-games", opts->skip_games, "Leave out the games of this list (written by --find-duplicates)"));
  opts->counting_only.push_back(
      cmd->add_option("--rules", opts->rules,
                      "Count as `build --rules NAME` counts: that preset's max-ply, repeat counting and "
                      "duplicates, where the flags do not say otherwise")
          ->check(CLI::IsMember({"default", "polyglot"})));
  opts->counting_only.push_back(
      cmd->add_option(
             "--weight", opts->weight,
             "Count for a book of this weight (build's --weight): rating keeps the players' ratings, "
             "which a book of counts otherwise leaves out (a store's counts keep them always)")
          ->transform(enum_names(book::parse_weight_kind, kWeightChoices)));
  opts->repeats_flag = cmd->add_flag("--count-repeats,!--no-count-repeats", opts->count_repeats,
                                     "Count a move every time a game repeats it (as Polyglot does), "
                                     "not once per game [off; on with --rules polyglot]");
  opts->counting_only.push_back(opts->repeats_flag);
  opts->duplicates_flag = cmd->add_flag(
      "--keep-duplicates,!--drop-duplicates", opts->keep_duplicates,
      "Count every copy of a game, or, with --drop-duplicates, a game found again once [drop; keep "
      "with --rules polyglot]");
  opts->counting_only.push_back(opts->duplicates_flag);
  add_filter_options(cmd, opts->filter);
  opts->read.max_ply = book::SelectionRules{}.max_ply;
  add_read_options(cmd, opts->read);
  opts->max_ply_flag = cmd->get_option("--max-ply");
  add_memory_option(*cmd, opts->memory);
  opts->counting_only.push_back(cmd->get_option("--memory"));
  opts->counting_only.push_back(cmd->get_option("--max-ply"));
  opts->counting_only.push_back(cmd->get_option("--strict"));
  for (CLI::Option* o : cmd->get_options())
    if (o->get_group() == "Game filters") opts->counting_only.push_back(o);
  opts->counting_only.push_back(
      cmd->add_option("--tmp-dir", opts->tmp_dir, "Folder for spilled runs (default: the set's folder)"));
  cmd->callback([opts] { set_exit_code(run_count(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("count", setup_count);

}  // namespace bookforge::cli
