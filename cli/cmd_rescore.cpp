// bookforge rescore: step 2 of rescoring in batches (docs/rescoring.md). Judges one batch of the
// positions of a plan written by `build --rescore-plan`, with the plan's limits, and writes their
// verdicts for `build --rescore-verdicts`:
//
//   bookforge rescore PLAN --batch i/N -o VERDICTS [--threads T] [--engine PATH]
//
// Every position is judged from a cleared searcher (book/verdict.h), so the verdicts are those
// the build would find itself, on any machine and in any batch.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/batch.h"
#include "book/rescore_plan.h"
#include "book/rescore_verdicts.h"
#include "cli/command.h"
#include "cli/filter_options.h"
#include "cli/number_option.h"
#include "cli/output_path.h"
#include "cli/rescore_options.h"

namespace bookforge::cli {
namespace {

struct RescoreCommandOptions {
  std::string plan;
  std::string output;
  std::string batch = Batch{}.describe();
  std::string engine;  // the plan's engine, where this machine has it
  ReadFlags read;      // --threads, --progress, --quiet
};

// The plan's engine as this machine runs it: the plan names it by file name (or "embedded");
// --engine says where it is, else it is looked up on PATH.
Result<std::string> engine_path(const book::RescoreLimits& plan, const std::string& plan_path,
                                const std::string& given) {
  if (given.empty()) return plan.engine_path;
  book::RescoreLimits here = plan;
  here.engine_path = given;
  if (here.engine_name() != plan.engine_name())
    return Error{"--engine: the plan " + plan_path + " was made for the engine " + plan.engine_name() +
                 ", not " + here.engine_name()};
  return given;
}

int run_rescore(const RescoreCommandOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  Result<Batch> batch = parse_batch(opts.batch);
  if (!batch) {
    print_error("--batch " + batch.error().message);
    return kExitUsage;
  }
  if (Status s = check_outputs({{"-o", opts.output}}, {opts.plan}); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }

  // Step 1. The batch's positions, and the limits, from the plan.
  Result<book::RescorePlan> plan = book::read_rescore_plan(opts.plan, *batch);
  if (!plan) {
    print_error(plan.error().message);
    return kExitFailure;
  }
  book::RescoreLimits limits = plan->limits;
  Result<std::string> engine = engine_path(limits, opts.plan, opts.engine);
  if (!engine) {
    print_error(engine.error().message);
    return kExitUsage;
  }
  limits.engine_path = *engine;

  // Step 2. The searches.
  std::vector<book::PositionToJudge> positions;
  positions.reserve(plan->positions.size());
  for (const book::PlannedPosition& p : plan->positions) positions.push_back({&p.board, p.moves});
  Result<std::vector<book::Verdict>> verdicts = book::judge_positions(
      positions, limits, read_threads(opts.read),
      shows_progress(opts.read) ? make_rescore_progress() : std::function<void(uint64_t, uint64_t)>());
  if (!verdicts) {
    print_error(opts.plan + ": rescoring failed: " + verdicts.error().message);
    return kExitFailure;
  }

  // Step 3. The verdicts, in place only when complete.
  if (Status s = book::write_rescore_verdicts(opts.output, *plan, *batch, *verdicts); !s.ok()) {
    print_error(s.error().message);
    return kExitFailure;
  }
  if (!opts.read.quiet) {
    uint64_t nodes = 0;
    for (const book::Verdict& v : *verdicts) nodes += v.nodes;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %zu positions of batch %s (the plan has %llu) judged, %llu nodes, in %.2f s\n",
                opts.output.c_str(), plan->positions.size(), batch->describe().c_str(),
                static_cast<unsigned long long>(plan->total), static_cast<unsigned long long>(nodes),
                seconds);
  }
  return kExitOk;
}

void setup_rescore(CLI::App& root) {
  auto opts = std::make_shared<RescoreCommandOptions>();
  CLI::App* cmd = add_subcommand(
      root, "rescore",
      "Rescoring in batches: judge one batch of the positions of a plan (build --rescore-plan) and write "
      "their verdicts (for build --rescore-verdicts)");
  cmd->add_option("plan", opts->plan, "The plan written by build --rescore-plan")->required();
  cmd->add_option("-o,--output", opts->output, "The verdicts to write")->required();
  cmd->add_option("--batch", opts->batch,
                  "Judge the i-th (from 0) of N equal slices of the plan's positions, in the plan's order")
      ->default_str(opts->batch);
  cmd->add_option("--engine", opts->engine,
                  "Where this machine has the plan's external engine (its file name must be the plan's); "
                  "by default the engine's name is looked up on PATH");
  cmd->add_option("--threads", opts->read.threads, "Search threads, one searcher each (0 = all cores)")
      ->transform(whole_number(0, kMaxThreads));
  cmd->add_option("--progress", opts->read.progress,
                  "Progress line on stderr: never, auto (when a terminal) or always")
      ->check(CLI::IsMember({"never", "auto", "always"}))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", opts->read.quiet, "No progress line and no summary");
  cmd->callback([opts] { set_exit_code(run_rescore(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("rescore", setup_rescore);

}  // namespace bookforge::cli
