// bookforge bench: searches a fixed set of positions to a fixed depth with one thread and a
// fresh engine. The total node count is a signature of the search: it changes only when the
// search or evaluation changes. Also reports the speed (nodes/s).
//
// With --epd it runs a test suite instead (WAC, STS, ...): each position is searched with a
// depth, node or time limit, by the embedded engine or by an external UCI engine (--engine),
// and judged by its bm/am moves and, where the suite has them, its c8/c9 points.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <string>

#include "chess/san.h"
#include "cli/command.h"
#include "cli/eval_option.h"
#include "cli/number_option.h"
#include "engine/bench.h"
#include "engine/epd.h"
#include "engine/search.h"
#include "engine/uci_client.h"

namespace bookforge::cli {
namespace {

struct BenchOptions {
  int depth = engine::kBenchDepth;
  int hash_mb = int(engine::kBenchHashMb);
  bool quiet = false;
  // Suite mode
  std::string epd;
  std::string engine;  // external UCI engine; empty = the embedded one
  bool depth_given = false;
  uint64_t nodes = 0;
  int64_t movetime_ms = 0;
  int threads = 1;
  int first = 0;  // only the first N positions; 0 = all
  std::string eval = "network";
};

int run_signature_bench(const BenchOptions& opts) {
  engine::BenchSettings settings;
  settings.depth = opts.depth;
  settings.hash_mb = size_t(opts.hash_mb);
  const size_t positions = engine::bench_positions().size();
  const auto start = std::chrono::steady_clock::now();
  const Result<uint64_t> total_nodes = engine::run_bench(settings, [&](const engine::BenchPosition& p) {
    if (!opts.quiet)
      std::printf("Position %2zu/%zu  nodes %12llu  %.*s\n", p.number, positions, (unsigned long long)p.nodes,
                  int(p.fen.size()), p.fen.data());
  });
  if (!total_nodes.ok()) {
    print_error(total_nodes.error().message);
    return kExitFailure;
  }
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  std::printf("===========================\n");
  std::printf("Total time (ms) : %lld\n", (long long)ms);
  std::printf("Nodes searched  : %llu\n", (unsigned long long)*total_nodes);
  std::printf("Nodes/second    : %llu\n",
              (unsigned long long)(*total_nodes * 1000 / uint64_t(std::max<int64_t>(ms, 1))));
  return kExitOk;
}

struct SuiteTotals {
  int positions = 0;
  int solved = 0;
  int with_bm = 0;
  int64_t points = 0;
  int64_t max_points = 0;
  uint64_t nodes = 0;
};

int run_suite(const BenchOptions& opts) {
  std::ifstream in(opts.epd);
  if (!in) {
    print_error("cannot read " + opts.epd);
    return kExitFailure;
  }
  engine::SearchLimits limits;
  limits.depth = opts.depth_given ? opts.depth : 0;
  limits.nodes = opts.nodes;
  limits.clock.movetime_ms = opts.movetime_ms;
  if (!limits.depth && !limits.nodes && !limits.clock.movetime_ms) limits.clock.movetime_ms = 1000;

  std::unique_ptr<engine::UciClient> client;
  std::unique_ptr<engine::Engine> engine;
  std::string engine_name = "bookforge " BOOKFORGE_VERSION " (embedded)";
  if (!opts.engine.empty()) {
    auto launched = engine::UciClient::launch(
        opts.engine, {{"Threads", std::to_string(opts.threads)}, {"Hash", std::to_string(opts.hash_mb)}});
    if (!launched.ok()) {
      print_error(launched.error().message);
      return kExitFailure;
    }
    client = std::move(*launched);
    engine_name = client->name() + " (" + opts.engine + ")";
  } else {
    engine = std::make_unique<engine::Engine>(size_t(opts.hash_mb), opts.threads);
    engine->set_move_overhead(0);
  }

  SuiteTotals t;
  int line_number = 0, skipped = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (opts.first && t.positions >= opts.first) break;
    Result<engine::EpdRecord> rec = engine::parse_epd(line);
    if (!rec.ok()) {
      print_warning(opts.epd + ":" + std::to_string(line_number) + ": " + rec.error().message + " (skipped)");
      ++skipped;
      continue;
    }
    engine::SearchResult r;
    if (client) {
      if (Status s = client->new_game(); !s.ok()) {
        print_error(s.error().message);
        return kExitFailure;
      }
      Result<engine::SearchResult> searched = client->search(rec->board, limits);
      if (!searched.ok()) {
        print_error(opts.epd + ":" + std::to_string(line_number) + ": " + searched.error().message);
        return kExitFailure;
      }
      r = std::move(*searched);
    } else {
      engine->new_game();
      r = engine->search(rec->board, {}, limits);
    }
    ++t.positions;
    t.nodes += r.nodes;
    const bool judged = !rec->best_moves.empty() || !rec->avoid_moves.empty();
    const bool solved = judged && r.best_move.is_ok() && engine::epd_solved(*rec, r.best_move);
    t.with_bm += judged;
    t.solved += solved;
    int points = 0;
    if (!rec->points.empty()) {
      points = engine::epd_points(*rec, r.best_move);
      t.points += points;
      int best = 0;
      for (const auto& [m, p] : rec->points) best = std::max(best, p);
      t.max_points += best;
    }
    if (!opts.quiet) {
      const std::string played = r.best_move.is_ok() ? chess::move_to_san(rec->board, r.best_move) : "(none)";
      std::string expected;
      for (chess::Move m : rec->best_moves)
        expected += (expected.empty() ? "bm " : " ") + chess::move_to_san(rec->board, m);
      for (chess::Move m : rec->avoid_moves)
        expected += (expected.empty() ? "am " : " am ") + chess::move_to_san(rec->board, m);
      std::printf("%4d %-28s %-8s %-7s", t.positions, rec->id.c_str(), played.c_str(),
                  judged ? (solved ? "solved" : "FAILED") : "");
      if (!rec->points.empty()) std::printf(" %3d pts", points);
      std::printf("  (%s)\n", expected.c_str());
      std::fflush(stdout);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string limit_text = limits.depth   ? "depth " + std::to_string(limits.depth)
                           : limits.nodes ? std::to_string(limits.nodes) + " nodes"
                                          : std::to_string(limits.clock.movetime_ms) + " ms";
  std::printf("===========================\n");
  std::printf("Engine          : %s\n", engine_name.c_str());
  std::printf("Suite           : %s (%d positions, %s per position)\n", opts.epd.c_str(), t.positions,
              limit_text.c_str());
  if (t.with_bm) std::printf("Solved          : %d / %d\n", t.solved, t.with_bm);
  if (t.max_points)
    std::printf("Points          : %lld / %lld (%.1f%%)\n", (long long)t.points, (long long)t.max_points,
                100.0 * double(t.points) / double(t.max_points));
  if (skipped) std::printf("Skipped         : %d unreadable records\n", skipped);
  std::printf("Nodes searched  : %llu\n", (unsigned long long)t.nodes);
  std::printf("Total time (s)  : %.1f\n", seconds);
  return kExitOk;
}

void setup_bench(CLI::App& root) {
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* sub = add_subcommand(root, "bench",
                                 "Search fixed positions to a fixed depth: node-count signature and speed");
  auto* depth = sub->add_option("--depth", opts->depth,
                                "Search depth (default " + std::to_string(engine::kBenchDepth) + ")")
                    ->transform(whole_number(1, 64));
  sub->add_option("--hash", opts->hash_mb,
                  "Transposition table size in MB (default " + std::to_string(engine::kBenchHashMb) + ")")
      ->transform(whole_number(1, kMaxHashMb));
  sub->add_flag("--quiet", opts->quiet, "Only the totals");
  add_eval_option(sub, opts->eval);
  auto* epd = sub->add_option("--epd", opts->epd, "Run an EPD test suite (bm/am, STS points) instead")
                  ->check(CLI::ExistingFile);
  auto* nodes = sub->add_option("--nodes", opts->nodes, "Suite: node budget per position")
                    ->transform(whole_number(1, kNoLimit));
  auto* movetime =
      sub->add_option("--movetime", opts->movetime_ms, "Suite: milliseconds per position (default 1000)")
          ->transform(whole_number(1, kMaxMovetimeMs));
  nodes->needs(epd)->excludes(movetime)->excludes(depth);
  movetime->needs(epd)->excludes(depth);
  sub->add_option("--engine", opts->engine,
                  "Suite: an external UCI engine to run instead of the embedded one")
      ->needs(epd);
  sub->add_option("--threads", opts->threads, "Suite: search threads (default 1)")
      ->transform(whole_number(1, kMaxThreads))
      ->needs(epd);
  sub->add_option("--first", opts->first, "Suite: only the first N positions")
      ->transform(whole_number(1, std::numeric_limits<int>::max()))
      ->needs(epd);
  sub->callback([opts, depth] {
    opts->depth_given = depth->count() > 0;
    apply_eval_option(opts->eval);
    set_exit_code(opts->epd.empty() ? run_signature_bench(*opts) : run_suite(*opts));
  });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("bench", setup_bench);

}  // namespace bookforge::cli
