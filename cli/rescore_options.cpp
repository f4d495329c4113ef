#include "cli/rescore_options.h"

#include <chrono>
#include <cstdio>

#include "base/output_file.h"
#include "cli/eval_option.h"
#include "cli/help_default.h"
#include "cli/number_option.h"

namespace bookforge::cli {
namespace {

// A margin as wide as the whole score range (mated to mating) already keeps every move.
constexpr uint64_t kMaxCentipawns = 2 * engine::kScoreInfinite;

}  // namespace

std::function<void(uint64_t, uint64_t)> make_rescore_progress() {
  const auto start = std::chrono::steady_clock::now();
  return [start](uint64_t done, uint64_t total) {
    if (done >= total) {
      std::fprintf(stderr, "\r%-79s\r", "");
      std::fflush(stderr);
      return;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = seconds > 0 ? double(done) / seconds : 0;
    const double eta = rate > 0 ? double(total - done) / rate : 0;
    char line[128];
    std::snprintf(line, sizeof line, "rescoring %5.1f%%  %llu/%llu positions  %.1f positions/s  ETA %.0f s",
                  total ? 100.0 * double(done) / double(total) : 100.0, static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), rate, eta);
    std::fprintf(stderr, "\r%-79s", line);
    std::fflush(stderr);
  };
}

void add_rescore_options(CLI::App* cmd, RescoreFlags& f) {
  const std::string group = "Engine rescoring";
  const book::RescoreOptions defaults;
  f.depth_opt = cmd->add_option("--rescore-depth", f.depth,
                                "Search every book position's candidate moves to this depth")
                    ->transform(whole_number(1, engine::kMaxPly - 1))
                    ->group(group);
  f.nodes_opt = cmd->add_option("--rescore-nodes", f.nodes, "... or with this many nodes per search")
                    ->transform(whole_number(1, kNoLimit))
                    ->excludes(f.depth_opt)
                    ->group(group);
  cmd->add_option("--rescore-margin", f.margin_cp,
                  "Drop candidates scoring more than this many centipawns below the engine's best move "
                  "or the best candidate, whichever scores higher; an only move too " +
                      shown(double(defaults.margin_cp)))
      ->transform(whole_number(0, kMaxCentipawns))
      ->group(group);
  cmd->add_flag("--rescore-repair", f.repair,
                "Where every candidate of a position is dropped, put the engine's best move in their place "
                "(listed under rescore.repaired in --report)")
      ->group(group);
  cmd->add_flag("--rescore-propagate", f.propagate,
                "Also drop candidates whose book line goes wrong later: values backed up along the book's "
                "own lines from where they end (negamax over the kept moves), measured like the scores")
      ->group(group);
  cmd->add_option("--rescore-blend", f.blend,
                  "Blend the engine's preference into the weights: 0 keeps the book's, 1 uses the engine's " +
                      shown(defaults.blend))
      ->transform(decimal_number(0, 1))
      ->group(group);
  cmd->add_flag("--rescore-engine-alone", f.engine_alone,
                "Let the engine alone decide: drop candidates beyond the margin even where their games "
                "prove them (by default a move whose games show it scores as well as the position's other "
                "moves is kept; see README)")
      ->group(group);
  cmd->add_option("--rescore-engine", f.engine,
                  "Use this external UCI engine (e.g. /usr/games/stockfish) instead of the embedded one")
      ->group(group);
  cmd->add_option(
         "--rescore-eval", f.eval,
         "The embedded engine's evaluation: its network (network) or the hand-written one (classical) " +
             shown(std::string_view("network")))
      ->check(eval_choices())
      ->group(group);
  cmd->add_option("--rescore-hash", f.hash_mb,
                  "Transposition table per rescoring thread, in MB " + shown(double(defaults.hash_mb)))
      ->transform(whole_number(1, 4096))
      ->group(group);
  cmd->add_option("--rescore-plan", f.plan,
                  "Rescoring in batches, step 1: write the positions the rescoring would search, with their "
                  "candidates and the limits, to this file and stop (no book: leave out -o); then `bookforge "
                  "rescore PLAN --batch i/N` on any machine, and --rescore-verdicts")
      ->group(group);
  cmd->add_option("--rescore-verdicts", f.verdicts,
                  "Rescoring in batches, step 3: take each position's verdict from these files (written by "
                  "`bookforge rescore`) instead of searching it; a position without one is searched here. "
                  "The same book as rescoring here")
      ->excludes("--rescore-plan")
      ->group(group);
  cmd->add_option("--suspicious", f.suspicious,
                  "Write popular moves the engine considers bad to this CSV file (needs rescoring)")
      ->group(group);
  cmd->add_option("--suspicious-share", f.suspicious_share,
                  "A suspicious move was played in at least this percentage of the position's book games " +
                      shown(defaults.suspicious_share))
      ->transform(decimal_number(0, 100))
      ->group(group);
  cmd->add_option("--suspicious-margin", f.suspicious_margin_cp,
                  "... and scores at least this many centipawns below the engine's best move " +
                      shown(double(defaults.suspicious_margin_cp)))
      ->transform(whole_number(0, kMaxCentipawns))
      ->group(group);
}

Result<std::optional<book::RescoreOptions>> make_rescore_options(const RescoreFlags& f,
                                                                 const ReadFlags& read) {
  const bool requested = f.depth_opt->count() > 0 || f.nodes_opt->count() > 0;
  if (!requested) {
    if (!f.suspicious.empty() || !f.engine.empty() || f.repair || f.propagate || f.engine_alone ||
        !f.plan.empty() || !f.verdicts.empty())
      return Error{
          "--suspicious, --rescore-engine, --rescore-repair, --rescore-propagate, --rescore-engine-alone, "
          "--rescore-plan and --rescore-verdicts need --rescore-depth or --rescore-nodes"};
    return std::optional<book::RescoreOptions>();
  }
  book::RescoreOptions o;
  o.depth = f.depth;
  o.nodes = f.nodes;
  o.margin_cp = f.margin_cp;
  o.repair = f.repair;
  o.propagate = f.propagate;
  o.blend = f.blend;
  o.proven = !f.engine_alone;
  o.engine_path = f.engine;
  o.classical_eval = is_classical(f.eval);
  if (o.classical_eval && !f.engine.empty())
    return Error{"--rescore-eval is for the embedded engine, not --rescore-engine"};
  o.hash_mb = f.hash_mb;
  o.threads = read_threads(read);
  o.find_suspicious = !f.suspicious.empty();
  o.suspicious_share = f.suspicious_share;
  o.suspicious_margin_cp = f.suspicious_margin_cp;
  if (shows_progress(read)) o.on_progress = make_rescore_progress();
  if (Status s = o.validate(); !s.ok()) return s.error();
  return std::optional<book::RescoreOptions>(std::move(o));
}

void print_plan_summary(const RescoreFlags& f, const book::RescoreOptions& o, uint64_t positions) {
  const book::RescoreLimits limits = o.limits();
  std::printf("%s: %llu positions to rescore (%s %llu, engine %s, hash %d MB)\n", f.plan.c_str(),
              static_cast<unsigned long long>(positions), limits.depth ? "depth" : "nodes",
              static_cast<unsigned long long>(limits.depth ? uint64_t(limits.depth) : limits.nodes),
              limits.engine_name().c_str(), limits.hash_mb);
}

Status finish_rescore(const RescoreFlags& f, const book::RescoreStats& s,
                      const std::vector<book::SuspiciousMove>& suspicious, bool quiet) {
  if (!f.suspicious.empty())
    if (Status written = write_output_file(f.suspicious, book::suspicious_csv(suspicious)); !written.ok())
      return written;
  if (!quiet) {
    std::printf(
        "rescored %llu positions (%llu candidates, %llu dropped, %llu kept as proven by their games, %llu "
        "positions emptied, %llu repaired) in %.2f s, %.1f positions/s, %.2f s per 1,000 candidates",
        static_cast<unsigned long long>(s.positions), static_cast<unsigned long long>(s.candidates),
        static_cast<unsigned long long>(s.dropped), static_cast<unsigned long long>(s.proven_kept),
        static_cast<unsigned long long>(s.emptied), static_cast<unsigned long long>(s.repaired), s.seconds,
        s.seconds > 0 ? s.positions / s.seconds : 0.0,
        s.candidates > 0 ? 1000.0 * s.seconds / double(s.candidates) : 0.0);
    if (!f.verdicts.empty())
      std::printf("; %llu positions searched here, %llu verdicts taken from %zu file(s)",
                  static_cast<unsigned long long>(s.positions - s.taken),
                  static_cast<unsigned long long>(s.taken), f.verdicts.size());
    if (f.propagate)
      std::printf("; propagation: %llu more dropped in %d rounds",
                  static_cast<unsigned long long>(s.propagated_drops), s.propagation_rounds);
    if (!f.suspicious.empty())
      std::printf("; %zu suspicious moves in %s", suspicious.size(), f.suspicious.c_str());
    std::printf("\n");
  }
  return ok_status();
}

}  // namespace bookforge::cli
