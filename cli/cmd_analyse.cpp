// bookforge analyse: searches one position with the embedded engine and prints the score and
// principal variation of the best line(s), as text or JSON.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "chess/move_sequence.h"
#include "chess/san.h"
#include "cli/command.h"
#include "cli/eval_option.h"
#include "cli/number_option.h"
#include "engine/search.h"
#include "json/engine_json.h"

namespace bookforge::cli {
namespace {

struct AnalyseOptions {
  std::string fen;
  std::string moves;
  int depth = 0;
  uint64_t nodes = 0;
  int64_t movetime_ms = 0;
  int multipv = 1;
  bool json = false;
  int hash_mb = 64;
  int threads = 1;
  std::string eval = "network";
};

constexpr int kDefaultDepth = 12;

struct Position {
  chess::Board board;
  std::vector<uint64_t> history;
};

// The position after --moves (SAN or UCI) from --fen or the start position. Bad input is a
// CLI error (exit code 2), like any other bad flag.
Position setup_position(const AnalyseOptions& opts) {
  Position pos;
  if (!opts.fen.empty()) {
    Result<chess::Board> b = chess::Board::from_fen(opts.fen);
    if (!b.ok()) throw CLI::ValidationError("--fen", b.error().message);
    pos.board = *b;
  }
  if (Status played = chess::play_moves(pos.board, opts.moves, nullptr, &pos.history); !played)
    throw CLI::ValidationError("--moves", played.error().message);
  return pos;
}

// The PV in SAN with move numbers for reading ("12... Nf6 13. Bg5"), up to a move that is not
// legal where it comes (none from our engine).
std::string numbered_pv(chess::Board board, const std::vector<chess::Move>& pv) {
  std::string numbered;
  for (chess::Move m : pv) {
    if (!board.is_legal(m)) break;
    const int number = board.fullmove_number();
    if (board.side_to_move() == chess::kWhite)
      numbered += (numbered.empty() ? "" : " ") + std::to_string(number) + ". ";
    else if (numbered.empty())
      numbered += std::to_string(number) + "... ";
    else
      numbered += " ";
    numbered += chess::move_to_san(board, m);
    chess::UndoInfo undo;
    board.make_move(m, undo);
  }
  return numbered;
}

std::string score_text(engine::Score s) {
  char buf[32];
  if (engine::is_mate_score(s))
    std::snprintf(buf, sizeof buf, "#%d", engine::mate_in_moves(s));
  else
    std::snprintf(buf, sizeof buf, "%+.2f", s / 100.0);
  return buf;
}

void print_text(const Position& pos, const engine::SearchResult& r) {
  const uint64_t nps = r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1));
  std::printf("Position  %s\n", pos.board.fen().c_str());
  if (!r.best_move.is_ok()) {
    std::printf("Result    %s\n", pos.board.in_check() ? "checkmate" : "stalemate");
    return;
  }
  const int seldepth = r.lines.empty() ? 0 : r.lines[0].seldepth;
  std::printf("Search    depth %d (seldepth %d), %llu nodes in %.2f s (%llu nodes/s)\n", r.depth, seldepth,
              (unsigned long long)r.nodes, r.time_ms / 1000.0, (unsigned long long)nps);
  std::printf("Scores    from the side to move's point of view (%s)\n\n",
              pos.board.side_to_move() == chess::kWhite ? "White" : "Black");
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const engine::PvLine& l = r.lines[i];
    const std::string bound =
        l.bound == engine::Bound::kExact ? "" : std::string(" (") + engine::bound_name(l.bound) + " bound)";
    std::printf("%2zu. %7s  %s%s\n", i + 1, score_text(l.score).c_str(), numbered_pv(pos.board, l.pv).c_str(),
                bound.c_str());
  }
}

int run_analyse(const AnalyseOptions& opts) {
  const Position pos = setup_position(opts);
  engine::Engine engine(size_t(opts.hash_mb), opts.threads);
  engine::SearchLimits limits;
  limits.depth = opts.depth;
  limits.nodes = opts.nodes;
  limits.clock.movetime_ms = opts.movetime_ms;
  if (!opts.depth && !opts.nodes && !opts.movetime_ms) limits.depth = kDefaultDepth;
  limits.multipv = opts.multipv;
  engine.set_move_overhead(0);
  const engine::SearchResult result = engine.search(pos.board, pos.history, limits);
  if (opts.json)
    std::puts(json::json_text(json::to_json(result, pos.board, json::Style::kCli), 2).c_str());
  else
    print_text(pos, result);
  return kExitOk;
}

void setup_analyse(CLI::App& root) {
  auto opts = std::make_shared<AnalyseOptions>();
  CLI::App* sub =
      add_subcommand(root, "analyse", "Search a position with the embedded engine: score and best line(s)");
  sub->alias("analyze");
  sub->add_option("--fen", opts->fen, "Position to analyse (default: the start position)");
  sub->add_option("--moves", opts->moves, "Moves (SAN or UCI) played from --fen or the start position");
  auto* depth = sub->add_option("--depth", opts->depth, "Search depth (default 12)")
                    ->transform(whole_number(1, engine::kMaxPly - 1));
  auto* nodes = sub->add_option("--nodes", opts->nodes, "Node budget")->transform(whole_number(1, kNoLimit));
  auto* movetime = sub->add_option("--movetime", opts->movetime_ms, "Time budget in milliseconds")
                       ->transform(whole_number(1, kMaxMovetimeMs));
  depth->excludes(nodes)->excludes(movetime);
  nodes->excludes(movetime);
  sub->add_option("--multipv", opts->multipv, "Number of best moves to report")
      ->transform(whole_number(1, 256));
  sub->add_flag("--json", opts->json, "Machine-readable output");
  sub->add_option("--hash", opts->hash_mb, "Transposition table size in MB (default 64)")
      ->transform(whole_number(1, kMaxHashMb));
  sub->add_option("--threads", opts->threads, "Search threads (default 1)")
      ->transform(whole_number(1, kMaxThreads));
  add_eval_option(sub, opts->eval);
  sub->callback([opts] {
    apply_eval_option(opts->eval);
    set_exit_code(run_analyse(*opts));
  });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("analyse", setup_analyse);

}  // namespace bookforge::cli
