// bookforge db novelty: where each game of some PGN left the store's tree (store/novelty.h):
//
//   bookforge db novelty --db STORE GAMES.pgn... [--min-games N] [--speeds ..] [--ratings ..]
//                        [--since YYYY-MM] [--until YYYY-MM] [--json]
//
// A subcommand of `db`, in a file of its own: it registers after `db` (the registry runs in name
// order) and hangs itself under it.
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/game_list_text.h"
#include "cli/number_option.h"
#include "cli/read_report.h"
#include "cli/slice_options.h"
#include "json/novelty_json.h"
#include "store/novelty.h"
#include "store/store.h"

namespace bookforge::cli {
namespace {

struct DbNoveltyOptions {
  std::string db;
  std::vector<std::string> inputs;
  uint64_t min_games = 1;
  SliceFlags slices;
  bool json = false;
};

// "12...Nc5", "3.Nf3".
std::string numbered(const store::PathMove& m) {
  return std::to_string(m.move_number) + (m.black_moves ? "..." : ".") + m.move.san;
}

void print_path(const std::vector<store::PathMove>& path) {
  std::printf("  %-12s %9s %9s %9s %9s %9s\n", "move", "position", "move", "white", "draws", "black");
  for (const store::PathMove& m : path)
    std::printf("  %-12s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n",
                numbered(m).c_str(), m.position_games, m.move.games, m.move.white, m.move.draws,
                m.move.black);
}

void print_game_text(const store::GameNovelty& g, uint64_t min_games) {
  const store::GameRecord& r = g.game;
  std::printf("game %" PRIu64 "  %s - %s  (%s, %s, %s)  %s game %" PRIu64 "\n", g.global_number,
              r.white.c_str(), r.black.c_str(), r.event.empty() ? "?" : r.event.c_str(),
              r.date.empty() ? "?" : r.date.c_str(), r.result().c_str(), g.file.c_str(), r.number);
  if (g.path.empty()) {
    std::printf("  no move to walk\n\n");
    return;
  }
  if (g.left_tree) {
    const store::PathMove& novelty = g.path.back();
    std::string how = novelty.move.games == 0 ? "no game played it"
                                              : std::to_string(novelty.move.games) + " game" +
                                                    (novelty.move.games == 1 ? "" : "s") +
                                                    " played it, fewer than " + std::to_string(min_games);
    std::printf("  left the tree at %s (ply %d): %" PRIu64 " game%s before it, %s\n",
                numbered(novelty).c_str(), novelty.ply, novelty.position_games,
                novelty.position_games == 1 ? "" : "s", how.c_str());
  } else if (g.reached_max_ply) {
    std::printf("  stayed in the tree up to the store's max-ply (%zu plies)\n", g.path.size());
  } else {
    std::printf("  stayed in the tree to its last move (%zu plies)\n", g.path.size());
  }
  print_path(g.path);
  if (g.left_tree && g.top_games.empty())
    std::printf(
        "  no top games kept for the position before it (a store keeps them up to db add's --game-plies)\n");
  else if (g.left_tree)
    print_game_list_text("  top games before it (bookforge db game ID prints one)", g.top_games);
  std::printf("\n");
}

int run_db_novelty(const DbNoveltyOptions& opts) {
  counts::SliceFilter filter;
  std::optional<store::Store> db;
  if (int code = open_store_with_filter(opts.db, opts.slices, filter, db); code != kExitOk) return code;
  store::NoveltyOptions options;
  options.pipeline.inputs = opts.inputs;
  options.filter = filter;
  options.min_games = opts.min_games;
  // Text goes out game by game; JSON is one document, written once every game is walked.
  std::vector<store::GameNovelty> games;
  uint64_t left = 0, stayed = 0;
  Result<store::NoveltyReport> report = store::find_novelties(*db, options, [&](const store::GameNovelty& g) {
    ++(g.left_tree ? left : stayed);
    if (opts.json)
      games.push_back(g);
    else
      print_game_text(g, opts.min_games);
  });
  if (!report) {
    print_error(report.error().message);
    return kExitFailure;
  }
  warn_bad_games(report->read);
  if (opts.json) {
    const json::NoveltyDocument document{filter, opts.min_games, games, *report};
    std::puts(json::json_text(json::to_json(document)).c_str());
    return kExitOk;
  }
  const pgn::ReadStats& read = report->read;
  std::printf("%" PRIu64 " game%s: %" PRIu64 " left the tree, %" PRIu64 " stayed in it, %" PRIu64
              " bad, %" PRIu64 " of other variants%s\n",
              read.games, read.games == 1 ? "" : "s", left, stayed, read.bad, read.unsupported_variant,
              filter.empty() ? "" : ("; store games of " + filter.describe()).c_str());
  return kExitOk;
}

void setup_db_novelty(CLI::App& root) {
  CLI::App* db = root.get_subcommand("db");
  auto opts = std::make_shared<DbNoveltyOptions>();
  CLI::App* novelty = add_subcommand(*db, "novelty", "Where each game of a PGN file left the store's tree");
  novelty
      ->add_option("files", opts->inputs, "PGN files (plain, gzip, bzip2, xz, zstd; '-' for standard input)")
      ->required();
  novelty->add_option("--db", opts->db, "The store")->required();
  novelty
      ->add_option("--min-games", opts->min_games,
                   "A move played by fewer of the store's games leaves the tree (default 1: by none)")
      ->transform(whole_number(1, kNoLimit));
  add_slice_options(*novelty, opts->slices);
  novelty->add_flag(
      "--json", opts->json,
      "Print {\"filter\", \"min_games\", \"max_ply\", \"games\": [{\"file\", \"game\", \"white\", \"black\", "
      "\"white_elo\", \"black_elo\", \"result\", \"date\", \"event\", \"url\", \"left_tree\", "
      "\"reached_max_ply\", \"novelty\", \"path\": [{\"ply\", \"move_number\", \"side\", \"san\", \"uci\", "
      "\"position_games\", \"games\", \"white\", \"draws\", \"black\"}], \"top_games\"}], \"bad_games\"}");
  novelty->callback([opts] { set_exit_code(run_db_novelty(*opts)); });
}

}  // namespace

// "db novelty" sorts after "db", whose subcommand this joins.
BOOKFORGE_REGISTER_COMMAND("db novelty", setup_db_novelty);

}  // namespace bookforge::cli
