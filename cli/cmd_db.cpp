// bookforge db: the SQLite tree. `db add` counts PGN files (or loads sets of counts) into a store, `db
// explore` shows the moves of one position with their statistics, `db stats` summarises a store.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/hex.h"
#include "book/opening_names.h"
#include "book/polyglot/format.h"
#include "cli/command.h"
#include "cli/filter_options.h"
#include "cli/game_list_text.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/openings_option.h"
#include "cli/output_path.h"
#include "cli/position_options.h"
#include "cli/read_report.h"
#include "cli/slice_options.h"
#include "json/history_json.h"
#include "json/player_json.h"
#include "json/store_json.h"
#include "store/add.h"
#include "store/add_from_counts.h"
#include "store/explore.h"
#include "store/game_text.h"
#include "store/history.h"
#include "store/player_explore.h"
#include "store/store.h"

namespace bookforge::cli {
namespace {

struct DbAddOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> from_counts;      // sets made by `count --for store` (store/add_from_counts.h)
  std::vector<const CLI::Option*> counting;  // flags that shape counting, which the sets did
  std::string db;
  FilterFlags filter;
  ReadFlags read;
  bool count_repeats = false;
  bool force = false;
  bool keep_duplicates = false;
  int game_plies = 0;
  std::string memory;
  std::string tmp_dir;
};

struct DbExploreOptions {
  std::string db;
  PositionOptions position;
  SliceFlags slices;
  std::string openings;
  bool json = false;
  bool history = false;
  std::string player;  // with color: the player explorer
  std::string color;
  std::string modes;
};

struct DbGameOptions {
  std::string db;
  std::string id;
};

struct DbStatsOptions {
  std::string db;
  bool json = false;
};

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// ---------------------------------------------------------------------------------------------
// db add

int print_db_add(const DbAddOptions& opts, const store::StoreAddReport& report);
int run_db_add_from_counts(const DbAddOptions& opts);

int run_db_add(const DbAddOptions& opts) {
  if (opts.inputs.empty() == opts.from_counts.empty()) {
    print_error("give PGN files or --from-counts SETS");
    return kExitUsage;
  }
  if (!opts.from_counts.empty()) return run_db_add_from_counts(opts);
  Result<pgn::PipelineOptions> pipeline = make_pipeline_options(opts.inputs, opts.filter, opts.read);
  if (!pipeline) {
    print_error(pipeline.error().message);
    return kExitUsage;
  }
  store::StoreAddOptions add;
  add.db_path = opts.db;
  add.force = opts.force;
  add.keep_duplicates = opts.keep_duplicates;
  add.game_plies = opts.game_plies;
  add.pipeline = std::move(*pipeline);
  add.tally.count_repeats = opts.count_repeats;
  if (int code = apply_memory_option(opts.memory, add.tally); code != kExitOk) return code;
  // Spills go beside the store unless told otherwise: that folder must be writable anyway.
  std::string store_dir = std::filesystem::path(opts.db).parent_path().string();
  add.tally.tmp_dir = !opts.tmp_dir.empty() ? opts.tmp_dir : store_dir.empty() ? "." : store_dir;
  if (Status s = check_not_an_input({"--db", opts.db}, opts.inputs); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }

  Result<store::StoreAddReport> report = store::store_add(add);
  if (!report) {
    print_error(report.error().message);
    return kExitFailure;
  }
  return print_db_add(opts, *report);
}

int run_db_add_from_counts(const DbAddOptions& opts) {
  for (const CLI::Option* o : opts.counting)
    if (o->count() > 0) {
      print_error(o->get_name() + " shapes the counting of PGN files: the sets were counted with theirs " +
                  "(count them again to change it)");
      return kExitUsage;
    }
  store::StoreFromCountsOptions add;
  add.db_path = opts.db;
  add.sets = opts.from_counts;
  add.force = opts.force;
  if (opts.keep_duplicates) add.keep_duplicates = true;
  add.game_plies = opts.game_plies;
  if (Status s = check_not_an_input({"--db", opts.db}, opts.from_counts); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  Result<store::StoreAddReport> report = store::store_add_from_counts(add);
  if (!report) {
    print_error(report.error().message);
    return kExitFailure;
  }
  return print_db_add(opts, *report);
}

int print_db_add(const DbAddOptions& opts, const store::StoreAddReport& report) {
  const pgn::ReadStats& read = report.read;
  if (opts.read.quiet) return kExitOk;
  for (const std::string& reason : report.forced) print_warning("forced: " + reason);
  for (const std::string& side : report.removed_side_files)
    print_warning("removed " + side + ", left by a deleted store of this name (a `bookforge serve` still " +
                  "running on the deleted store serves it until restarted)");
  warn_bad_games(read);
  std::printf("%s: %s, %zu source%s added\n", opts.db.c_str(), report.created ? "created" : "updated",
              report.sources.size(), report.sources.size() == 1 ? "" : "s");
  for (const store::SourceRecord& s : report.sources)
    std::printf("  %s: %" PRIu64 " games\n", s.name.c_str(), s.games);
  uint64_t rejected = 0;
  for (const auto& [name, n] : read.rejected) rejected += n;
  std::printf("games %" PRIu64 ", accepted %" PRIu64 ", rejected %" PRIu64 ", bad %" PRIu64
              ", unsupported %" PRIu64 "\n",
              read.games, read.accepted, rejected, read.bad, read.unsupported_variant);
  std::printf(
      "duplicates %" PRIu64 " %s\n", report.duplicates,
      opts.keep_duplicates ? "kept (--keep-duplicates)" : "dropped (games already read or in the store)");
  std::printf("rows merged %" PRIu64 ", spills %" PRIu64 ", read %.2f s, merge %.2f s\n", report.rows_merged,
              report.tally.spills, report.read_seconds, report.merge_seconds);
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// db explore

std::string opening_of(const book::OpeningNames& names, uint64_t key) {
  const book::OpeningName* name = names.find(key);
  return name ? name->eco + " " + name->name : std::string();
}

// The top and recent games of the explored position (store/game_record.h).
struct PositionGameLists {
  std::vector<store::GameRecord> top;
  std::vector<store::GameRecord> recent;
};

Result<PositionGameLists> position_game_lists(store::Store& db, uint64_t key) {
  PositionGameLists lists;
  Result<std::vector<store::GameRecord>> top = db.games_at(key, store::Store::GameOrder::kTopRated);
  if (!top) return top.error();
  Result<std::vector<store::GameRecord>> recent = db.games_at(key, store::Store::GameOrder::kRecent);
  if (!recent) return recent.error();
  lists.top = std::move(*top);
  lists.recent = std::move(*recent);
  return lists;
}

void print_position_games_text(const PositionGameLists& lists) {
  print_game_list_text("top games (highest mean rating; bookforge db game ID prints one)", lists.top);
  print_game_list_text("recent games", lists.recent);
}

void print_exploration_json(const store::Exploration& x, const std::optional<store::Arrival>& arrival,
                            const chess::Board& board, const counts::SliceFilter& filter,
                            const book::OpeningNames& names, const PositionGameLists& games) {
  const json::ExploredPosition position{x, arrival, board, filter, names, games.top, games.recent};
  std::puts(json::json_text(json::to_json(position, json::Style::kCli)).c_str());
}

void print_exploration_text(const store::Exploration& x, const std::optional<store::Arrival>& arrival,
                            const counts::SliceFilter& filter, const chess::Board& board,
                            const book::OpeningNames& names, const PositionGameLists& games) {
  std::printf("position  %s\n", board.fen().c_str());
  std::printf("key       %s\n", hex64(x.key).c_str());
  if (!filter.empty()) std::printf("games of  %s\n", filter.describe().c_str());
  if (std::string opening = opening_of(names, x.key); !opening.empty())
    std::printf("opening   %s\n", opening.c_str());
  std::printf("games     %" PRIu64 "\n", x.games);
  if (arrival)
    std::printf("reached   %" PRIu64 " by this line's last move, %" PRIu64 " by other move orders%s\n",
                arrival->by_line, arrival->by_other_orders(),
                arrival->mostly_transposed() ? " (mostly a transposition)" : "");
  if (x.moves.empty()) {
    std::printf("no moves in the store for this position\n");
    print_position_games_text(games);
    return;
  }
  std::printf("\n%-8s %-6s %10s %6s %7s %7s %7s %7s %7s %7s %6s %-9s  %s\n", "move", "uci", "games", "share",
              "white", "draws", "black", "score", "avg elo", "opp elo", "perf", "years", "opening");
  auto rating = [](const std::optional<double>& r) { return r ? fixed(*r, 0) : std::string("-"); };
  for (const store::ExploredMove& m : x.moves) {
    std::string years = !m.first_year ? "-"
                        : *m.first_year == *m.last_year
                            ? std::to_string(*m.first_year)
                            : std::to_string(*m.first_year) + "-" + std::to_string(*m.last_year);
    std::printf("%-8s %-6s %10" PRIu64 " %5.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7s %7s %6s %-9s  %s\n",
                m.san.c_str(), m.uci.c_str(), m.games, m.share_percent, m.white_percent, m.draws_percent,
                m.black_percent, m.score_percent, rating(m.avg_rating).c_str(),
                rating(m.avg_opponent_rating).c_str(), rating(m.performance).c_str(), years.c_str(),
                opening_of(names, m.after_key).c_str());
  }
  std::printf(
      "\nwhite / draws / black: of the games with a result; score, avg elo, perf (opp elo + 400 x (wins - "
      "losses) / results): the mover's\n");
  print_position_games_text(games);
}

void print_history_text(const store::History& h, const chess::Board& board,
                        const counts::SliceFilter& filter) {
  std::printf("position  %s\n", board.fen().c_str());
  std::printf("key       %s\n", hex64(board.key()).c_str());
  if (!filter.empty()) std::printf("games of  %s\n", filter.describe().c_str());
  if (h.months.empty())
    std::printf("no dated games in the store for this position\n");
  else
    std::printf("\n%-8s %10s %10s %10s %10s\n", "month", "games", "white", "draws", "black");
  for (const store::MonthResults& m : h.months)
    std::printf("%04d-%02d  %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", m.year, m.month,
                m.games, m.white, m.draws, m.black);
  if (h.undated > 0) std::printf("\n%" PRIu64 " more game(s) with no month in their date\n", h.undated);
}

// db explore --history: the position's games month by month instead of its moves.
int run_db_history(store::Store& db, const chess::Board& board, const counts::SliceFilter& filter,
                   bool as_json) {
  Result<store::History> h = store::position_history(db, board, filter);
  if (!h) {
    print_error(h.error().message);
    return kExitFailure;
  }
  if (as_json) {
    const json::Json out{{"key", hex64(board.key())},
                         {"filter", filter.describe()},
                         {"history", json::to_json(*h, json::Style::kCli)}};
    std::puts(json::json_text(out).c_str());
  } else {
    print_history_text(*h, board, filter);
  }
  return kExitOk;
}

void print_player_text(const store::PlayerExploration& x, const store::PlayerQuery& q,
                       const chess::Board& board, const book::OpeningNames& names) {
  std::printf("position  %s\n", board.fen().c_str());
  std::printf("key       %s\n", hex64(x.key).c_str());
  std::printf("player    %s with %s: %" PRIu64 " game(s)%s%s\n", q.player.c_str(),
              q.as_white ? "White" : "Black", x.player_games, q.filter.empty() ? "" : " of ",
              q.filter.empty() ? "" : q.filter.describe().c_str());
  if (x.games_without_moves > 0)
    std::printf("note      %" PRIu64 " game(s) added before this store kept moves are not walked\n",
                x.games_without_moves);
  std::printf("games     %" PRIu64 "\n", x.games);
  if (x.moves.empty()) {
    std::printf("no game of the player played on from this position\n");
    return;
  }
  std::printf("\n%-8s %-6s %8s %8s %8s %8s %7s %7s %6s %-10s  %s\n", "move", "uci", "games", "white", "draws",
              "black", "score", "opp elo", "perf", "last", "opening");
  auto rating = [](const std::optional<double>& r) { return r ? fixed(*r, 0) : std::string("-"); };
  for (const store::PlayerMove& m : x.moves) {
    const std::string last = m.last_date ? std::to_string(m.last_date / 10000) : std::string("-");
    std::printf("%-8s %-6s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %6.1f%% %7s %6s %-10s  %s\n",
                m.san.c_str(), m.uci.c_str(), m.games, m.white, m.draws, m.black, m.score_percent,
                rating(m.avg_opponent_rating).c_str(), rating(m.performance).c_str(), last.c_str(),
                opening_of(names, m.after_key).c_str());
  }
  std::printf("\nscore and perf (opp elo + 400 x (wins - losses) / results): the player's\n");
  constexpr size_t kShown = 8;
  std::vector<store::GameRecord> recent(x.recent_games.begin(),
                                        x.recent_games.begin() + std::min(kShown, x.recent_games.size()));
  print_game_list_text("recent games (bookforge db game ID prints one)", recent);
}

// db explore --player: the tree of one player's games with one colour.
int run_db_player(const DbExploreOptions& opts, store::Store& db, const chess::Board& board,
                  const counts::SliceFilter& filter) {
  store::PlayerQuery query;
  query.player = opts.player;
  query.as_white = opts.color == "white";
  query.filter = filter;
  Result<uint32_t> modes = store::parse_modes(opts.modes);
  if (!modes) {
    print_error(modes.error().message);
    return kExitUsage;
  }
  query.modes = *modes;
  Result<store::PlayerExploration> x = store::explore_player(db, board, query);
  if (!x) {
    print_error(x.error().message);
    return kExitFailure;
  }
  book::OpeningNames names;
  if (int code = load_opening_names(opts.openings, names); code != kExitOk) return code;
  if (opts.json)
    std::puts(json::json_text(json::to_json(json::PlayerPosition{*x, query, board, names}, json::Style::kCli))
                  .c_str());
  else
    print_player_text(*x, query, board, names);
  return kExitOk;
}

int run_db_explore(const DbExploreOptions& opts) {
  std::optional<chess::LastMove> last;
  Result<chess::Board> board = resolve_position(opts.position, &last);
  if (!board) {
    print_error(board.error().message);
    return kExitUsage;
  }
  counts::SliceFilter filter;
  std::optional<store::Store> db;
  pgn::VariantSet answered = pgn::kStandardOnly;
  if (int code = open_store_with_filter(opts.db, opts.slices, filter, db, &answered); code != kExitOk)
    return code;
  // A FEN of a Chess960 query is a Chess960 position, even without --chess960.
  if (!opts.position.chess960 && !opts.position.fen.empty() && answered == pgn::kChess960Only) {
    PositionOptions as960 = opts.position;
    as960.chess960 = true;
    board = resolve_position(as960, &last);
    if (!board) {
      print_error(board.error().message);
      return kExitUsage;
    }
  }
  if (opts.history) return run_db_history(*db, *board, filter, opts.json);
  if (!opts.player.empty()) return run_db_player(opts, *db, *board, filter);
  Result<store::Exploration> x = store::explore(*db, *board, filter);
  if (!x) {
    print_error(x.error().message);
    return kExitFailure;
  }
  // With --moves, how the games came here: by the line's last move or by other move orders.
  std::optional<store::Arrival> arrival;
  if (last) {
    Result<store::Arrival> a = store::arrival(*db, last->before, last->move, *x, filter);
    if (!a) {
      print_error(a.error().message);
      return kExitFailure;
    }
    arrival = *a;
  }
  book::OpeningNames names;
  if (int code = load_opening_names(opts.openings, names); code != kExitOk) return code;
  Result<PositionGameLists> games = position_game_lists(*db, x->key);
  if (!games) {
    print_error(games.error().message);
    return kExitFailure;
  }
  if (opts.json)
    print_exploration_json(*x, arrival, *board, filter, names, *games);
  else
    print_exploration_text(*x, arrival, filter, *board, names, *games);
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// db game

int run_db_game(const DbGameOptions& opts) {
  std::optional<store::FingerprintRange> range = store::parse_any_game_id(opts.id);
  if (!range) {
    print_error(
        "game id '" + opts.id +
        "': not a game id (16 hex digits, as db explore shows them, or the explorer API's 8 letters and "
        "digits)");
    return kExitUsage;
  }
  Result<store::Store> db = store::Store::open(opts.db, false);
  if (!db) {
    print_error(db.error().message);
    return kExitFailure;
  }
  Result<std::vector<uint64_t>> found = store::stored_fingerprints(*db, *range);
  if (!found) {
    print_error(found.error().message);
    return kExitFailure;
  }
  if (found->size() > 1) {  // two games sharing a short id (store/game_record.h)
    std::string ids;
    for (uint64_t f : *found) ids += (ids.empty() ? "" : ", ") + store::game_id(f);
    print_error(opts.db + ": game id " + opts.id + " is shared by " + ids + ": give the full id");
    return kExitFailure;
  }
  Result<std::optional<std::string>> text =
      found->empty() ? Result<std::optional<std::string>>(std::optional<std::string>())
                     : store::stored_game_text(*db, found->front());
  if (!text) {
    print_error(text.error().message);
    return kExitFailure;
  }
  if (!*text) {
    print_error(opts.db + ": no game " + opts.id);
    return kExitFailure;
  }
  std::fputs((*text)->c_str(), stdout);
  if (!(*text)->empty() && (*text)->back() != '\n') std::fputc('\n', stdout);
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// db stats

int run_db_stats(const DbStatsOptions& opts) {
  Result<store::Store> db = store::Store::open(opts.db, false);
  if (!db) {
    print_error(db.error().message);
    return kExitFailure;
  }
  Result<std::optional<store::CountingSettings>> settings = db->settings();
  Result<store::TreeStats> stats = db->stats();
  if (!settings || !stats) {
    print_error(!settings ? settings.error().message : stats.error().message);
    return kExitFailure;
  }
  const store::TreeStats& t = *stats;
  if (opts.json) {
    std::puts(json::json_text(json::to_json(t)).c_str());
    return kExitOk;
  }
  std::printf("positions %" PRIu64 "\nmoves     %" PRIu64 "\ngames     %" PRIu64 "\n", t.positions, t.moves,
              t.games);
  if (*settings) std::printf("counted   %s\n", (*settings)->describe().c_str());
  std::printf("sources   %zu\n", t.sources.size());
  for (const store::SourceRecord& s : t.sources) {
    std::printf("  %s  %s  %" PRIu64 " games  %s  hash %s  (%s)\n", s.added.c_str(), s.name.c_str(), s.games,
                s.size ? (std::to_string(*s.size) + " bytes").c_str() : "stdin",
                s.hash ? s.hash->c_str() : "-", s.settings.describe().c_str());
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------

void setup_db(CLI::App& root) {
  CLI::App* db = add_subcommand(root, "db", "The SQLite tree: full statistics, growing file by file");
  db->require_subcommand(1);

  auto add_opts = std::make_shared<DbAddOptions>();
  CLI::App* add = add_subcommand(*db, "add", "Count PGN files into a store (created if missing)");
  CLI::Option* files = add->add_option(
      "files", add_opts->inputs,
      "PGN files (plain, gzip, bzip2, xz, zstd). A file whose bytes the store already holds is "
      "refused; '-' (standard input) cannot be checked and is always added");
  add->add_option("--from-counts", add_opts->from_counts,
                  "Add sets of counts made by `bookforge count --for store` instead of PGN files: the same "
                  "store as from the PGN they counted (their filters, max-ply, repeat counting, duplicates "
                  "and game plies apply)")
      ->excludes(files);
  add->add_option("--db", add_opts->db, "The store (an SQLite file)")->required();
  add_filter_options(add, add_opts->filter);
  add_opts->read.max_ply = 60;  // build's default, so that build --from-db matches a plain build
  add_read_options(add, add_opts->read);
  add->add_flag("--count-repeats", add_opts->count_repeats,
                "Count a move every time a game repeats it (as Polyglot does), not once per game");
  add->add_flag(
      "--force", add_opts->force,
      "Add files already in the store, or with other filters / max-ply / repeat counting than the store's");
  add->add_flag("--keep-duplicates", add_opts->keep_duplicates,
                "Count every copy of a game; by default a game already in the store or read earlier in this "
                "add (same players, date, result, moves, ratings, time control and start) is counted once");
  add->add_option("--game-plies", add_opts->game_plies,
                  "Positions up to this ply of each game keep their top and recent games (default: the "
                  "store's; " +
                      std::to_string(store::kDefaultGamePlies) + " for a new store)")
      ->transform(whole_number(1, 1000));
  add_memory_option(*add, add_opts->memory);
  add->add_option("--tmp-dir", add_opts->tmp_dir, "Folder for spilled runs (default: the store's folder)");
  for (const char* name : {"--max-ply", "--count-repeats", "--strict"})
    add_opts->counting.push_back(add->get_option(name));
  for (const CLI::Option* o : add->get_options())
    if (o->get_group() == "Game filters") add_opts->counting.push_back(o);
  add->callback([add_opts] { set_exit_code(run_db_add(*add_opts)); });

  auto explore_opts = std::make_shared<DbExploreOptions>();
  CLI::App* explore = add_subcommand(*db, "explore", "The moves of one position with their statistics");
  explore->add_option("--db", explore_opts->db, "The store")->required();
  add_position_options(*explore, explore_opts->position);
  add_slice_options(*explore, explore_opts->slices);
  explore->add_flag(
      "--json", explore_opts->json,
      "Print {\"key\", \"filter\", \"games\", (with --moves) \"by_line\", \"by_other_orders\", "
      "\"mostly_transposed\", \"moves\": [{\"uci\", \"san\", \"games\", \"white\", \"draws\", \"black\", "
      "\"share\", \"avg_rating\", \"avg_opponent_rating\", \"performance\", \"first_year\", "
      "\"last_year\", \"score\", \"opening\"}], \"top_games\", \"recent_games\": [{\"id\", \"white\", "
      "\"black\", \"white_elo\", \"black_elo\", \"result\", \"date\", \"event\", \"url\", \"source\", "
      "\"number\", \"offset\"}]}");
  explore->add_flag("--history", explore_opts->history,
                    "The position's games month by month instead of its moves (with --json: {\"key\", "
                    "\"filter\", \"history\": {\"months\": [{\"month\", \"white\", \"draws\", \"black\", "
                    "\"games\"}], \"undated\"}}); months with no game are listed with zeros");
  CLI::Option* player = explore->add_option(
      "--player", explore_opts->player,
      "The player explorer: the moves of this player's games (the name as the PGN writes it, "
      "ASCII case ignored), with --color; figures from the player's side");
  explore->add_option("--color", explore_opts->color, "With --player: the player's colour")
      ->check(CLI::IsMember({"white", "black"}))
      ->needs(player);
  player->needs("--color");
  explore
      ->add_option("--modes", explore_opts->modes,
                   "With --player: rated,casual (as lichess's Event tag says; other games have no mode and "
                   "are kept only without --modes)")
      ->needs(player);
  explore->get_option("--history")->excludes(player);
  add_openings_option(*explore, explore_opts->openings);
  explore->callback([explore_opts] { set_exit_code(run_db_explore(*explore_opts)); });

  auto game_opts = std::make_shared<DbGameOptions>();
  CLI::App* game = add_subcommand(*db, "game", "Print a stored game's PGN, read back from its source file");
  game->add_option("id", game_opts->id, "The game's id, as db explore shows it")->required();
  game->add_option("--db", game_opts->db, "The store")->required();
  game->callback([game_opts] { set_exit_code(run_db_game(*game_opts)); });

  auto stats_opts = std::make_shared<DbStatsOptions>();
  CLI::App* stats = add_subcommand(*db, "stats", "Positions, moves, games and sources of a store");
  stats->add_option("--db", stats_opts->db, "The store")->required();
  stats->add_flag("--json", stats_opts->json, "Print JSON");
  stats->callback([stats_opts] { set_exit_code(run_db_stats(*stats_opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("db", setup_db);

}  // namespace bookforge::cli
