// bookforge db: the SQLite tree. `db add` counts PGN files into a store, `db explore` shows the
// moves of one position with their statistics, `db stats` summarises a store.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "book/memory_size.h"
#include "book/store.h"
#include "book/store_add.h"
#include "book/store_explore.h"
#include "cli/command.h"
#include "engine/move_sequence.h"

namespace bookforge::cli {
namespace {

struct DbAddOptions {
  std::vector<std::string> inputs;
  std::string db;
  int max_ply = 60;
  bool count_repeats = false;
  bool force = false;
  int threads = 0;
  std::string memory;
  std::string tmp_dir;
  bool strict = false;
  std::string progress = "auto";
  bool quiet = false;
};

struct DbExploreOptions {
  std::string db;
  std::string fen;
  std::string moves;
  bool json = false;
};

struct DbStatsOptions {
  std::string db;
  bool json = false;
};

std::string hex_key(uint64_t key) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, key);
  return text;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The position after --moves (SAN or UCI) from --fen or the start position; bad input is a
// usage error.
Board position_from(const std::string& fen, const std::string& moves) {
  Board board;
  if (!fen.empty()) {
    Result<Board> b = Board::from_fen(fen);
    if (!b) throw CLI::ValidationError("--fen", b.error().message);
    board = *b;
  }
  if (Status played = play_moves(board, moves); !played) throw CLI::ValidationError("--moves", played.error().message);
  return board;
}

// ---------------------------------------------------------------------------------------------
// db add

pgn::ProgressMode progress_mode(const DbAddOptions& opts) {
  if (opts.quiet || opts.progress == "never") return pgn::ProgressMode::kNever;
  return opts.progress == "always" ? pgn::ProgressMode::kAlways : pgn::ProgressMode::kAuto;
}

int run_db_add(const DbAddOptions& opts) {
  store::StoreAddOptions add;
  add.db_path = opts.db;
  add.force = opts.force;
  add.pipeline.inputs = opts.inputs;
  add.pipeline.max_ply = opts.max_ply;
  add.pipeline.threads = opts.threads;
  add.pipeline.strict = opts.strict;
  add.pipeline.progress = progress_mode(opts);
  add.tally.count_repeats = opts.count_repeats;
  add.tally.memory_budget = book::default_memory_budget();
  if (!opts.memory.empty()) {
    Result<uint64_t> bytes = book::parse_memory_size(opts.memory);
    if (!bytes) {
      print_error("--memory: " + bytes.error().message);
      return kExitUsage;
    }
    add.tally.memory_budget = *bytes;
  }
  // Spills go beside the store unless told otherwise: that folder is known to be writable.
  std::string store_dir = std::filesystem::path(opts.db).parent_path().string();
  add.tally.tmp_dir = !opts.tmp_dir.empty() ? opts.tmp_dir : store_dir.empty() ? "." : store_dir;

  Result<store::StoreAddReport> report = store::store_add(add);
  if (!report) {
    print_error(report.error().message);
    return kExitFailure;
  }
  for (const std::string& reason : report->forced) print_warning("forced: " + reason);
  const pgn::ReadStats& read = report->read;
  for (const pgn::BadGame& bad : read.bad_examples)
    print_warning(bad.file + ": game " + std::to_string(bad.game_number) + " (line " + std::to_string(bad.line) +
                  "): skipped: " + bad.detail);
  if (read.bad > read.bad_examples.size())
    print_warning(std::to_string(read.bad - read.bad_examples.size()) + " more bad games skipped");
  if (opts.quiet) return kExitOk;
  std::printf("%s: %s, %zu source%s added\n", opts.db.c_str(), report->created ? "created" : "updated",
              report->sources.size(), report->sources.size() == 1 ? "" : "s");
  for (const store::SourceRecord& s : report->sources)
    std::printf("  %s: %" PRIu64 " games\n", s.name.c_str(), s.games);
  uint64_t rejected = 0;
  for (const auto& [name, n] : read.rejected) rejected += n;
  std::printf("games %" PRIu64 ", accepted %" PRIu64 ", rejected %" PRIu64 ", bad %" PRIu64
              ", unsupported %" PRIu64 "\n",
              read.games, read.accepted, rejected, read.bad, read.unsupported_variant);
  std::printf("rows merged %" PRIu64 ", spills %" PRIu64 ", read %.2f s, merge %.2f s\n", report->rows_merged,
              report->tally.spills, report->read_seconds, report->merge_seconds);
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// db explore

void print_exploration_json(const store::Exploration& x) {
  std::string out = "{\"key\": \"" + hex_key(x.key) + "\", \"games\": " + std::to_string(x.games) + ", \"moves\": [";
  for (size_t i = 0; i < x.moves.size(); ++i) {
    const store::ExploredMove& m = x.moves[i];
    if (i) out += ", ";
    out += "{\"uci\": " + json_string(m.uci) + ", \"san\": " + json_string(m.san) +
           ", \"games\": " + std::to_string(m.games) + ", \"white\": " + fixed(m.white_percent, 2) +
           ", \"draws\": " + fixed(m.draws_percent, 2) + ", \"black\": " + fixed(m.black_percent, 2) +
           ", \"avg_rating\": " + (m.avg_rating ? fixed(*m.avg_rating, 1) : std::string("null")) +
           ", \"score\": " + fixed(m.score_percent, 2) + "}";
  }
  out += "]}\n";
  std::fputs(out.c_str(), stdout);
}

void print_exploration_text(const store::Exploration& x, const Board& board) {
  std::printf("position %s (%s to move), %" PRIu64 " games\n", hex_key(x.key).c_str(),
              board.side_to_move() == kWhite ? "white" : "black", x.games);
  if (x.moves.empty()) {
    std::printf("no moves in the store\n");
    return;
  }
  std::printf("%-8s %-6s %10s %7s %7s %7s %7s %8s\n", "move", "uci", "games", "white", "draws", "black", "score",
              "avg elo");
  for (const store::ExploredMove& m : x.moves) {
    std::string elo = m.avg_rating ? fixed(*m.avg_rating, 0) : "-";
    std::printf("%-8s %-6s %10" PRIu64 " %6.1f%% %6.1f%% %6.1f%% %6.1f%% %8s\n", m.san.c_str(), m.uci.c_str(),
                m.games, m.white_percent, m.draws_percent, m.black_percent, m.score_percent, elo.c_str());
  }
}

int run_db_explore(const DbExploreOptions& opts) {
  const Board board = position_from(opts.fen, opts.moves);
  Result<store::Store> db = store::Store::open(opts.db, false);
  if (!db) {
    print_error(db.error().message);
    return kExitFailure;
  }
  Result<store::Exploration> x = store::explore(*db, board);
  if (!x) {
    print_error(x.error().message);
    return kExitFailure;
  }
  if (opts.json) print_exploration_json(*x);
  else print_exploration_text(*x, board);
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
    std::string out = "{\"positions\": " + std::to_string(t.positions) + ", \"moves\": " + std::to_string(t.moves) +
                      ", \"games\": " + std::to_string(t.games) + ", \"sources\": [";
    for (size_t i = 0; i < t.sources.size(); ++i) {
      const store::SourceRecord& s = t.sources[i];
      if (i) out += ", ";
      out += "{\"name\": " + json_string(s.name) +
             ", \"size\": " + (s.size ? std::to_string(*s.size) : std::string("null")) +
             ", \"hash\": " + (s.hash ? json_string(*s.hash) : std::string("null")) +
             ", \"games\": " + std::to_string(s.games) + ", \"filters\": " + json_string(s.settings.filters) +
             ", \"max_ply\": " + std::to_string(s.settings.max_ply) +
             ", \"count_repeats\": " + (s.settings.count_repeats ? "true" : "false") +
             ", \"added\": " + json_string(s.added) + "}";
    }
    out += "]}\n";
    std::fputs(out.c_str(), stdout);
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
  add->add_option("files", add_opts->inputs, "PGN files (plain, gzip, bzip2, xz, zstd); - for stdin")->required();
  add->add_option("--db", add_opts->db, "The store (an SQLite file)")->required();
  add->add_option("--max-ply", add_opts->max_ply, "Count only the first N plies of each game (0: all)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  add->add_flag("--count-repeats", add_opts->count_repeats,
                "Count a move every time a game repeats it (default: once per game)");
  add->add_flag("--force", add_opts->force,
                "Add files already in the store, or with other filters / max-ply than the store's");
  add->add_option("--threads", add_opts->threads, "Parser threads (0: all cores)")->check(CLI::NonNegativeNumber);
  add->add_option("--memory", add_opts->memory, "Memory budget of the tally, e.g. 512M (default: a quarter of RAM)");
  add->add_option("--tmp-dir", add_opts->tmp_dir, "Where the tally spills (default: the store's folder)");
  add->add_flag("--strict", add_opts->strict, "Stop at the first bad game instead of skipping it");
  add->add_option("--progress", add_opts->progress, "Progress line on stderr")
      ->check(CLI::IsMember({"never", "auto", "always"}))
      ->capture_default_str();
  add->add_flag("--quiet", add_opts->quiet, "No progress line and no summary");
  add->callback([add_opts] { set_exit_code(run_db_add(*add_opts)); });

  auto explore_opts = std::make_shared<DbExploreOptions>();
  CLI::App* explore = add_subcommand(*db, "explore", "The moves of one position with their statistics");
  explore->add_option("--db", explore_opts->db, "The store")->required();
  explore->add_option("--fen", explore_opts->fen, "Start from this position (default: the start position)");
  explore->add_option("--moves", explore_opts->moves, "Then play these moves (SAN or UCI), e.g. \"e4 e5 Nf3\"");
  explore->add_flag("--json", explore_opts->json, "Print JSON");
  explore->callback([explore_opts] { set_exit_code(run_db_explore(*explore_opts)); });

  auto stats_opts = std::make_shared<DbStatsOptions>();
  CLI::App* stats = add_subcommand(*db, "stats", "Positions, moves, games and sources of a store");
  stats->add_option("--db", stats_opts->db, "The store")->required();
  stats->add_flag("--json", stats_opts->json, "Print JSON");
  stats->callback([stats_opts] { set_exit_code(run_db_stats(*stats_opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("db", setup_db);

}  // namespace bookforge::cli
