// bookforge exits: a book's exit positions (where its lines end), searched by the embedded engine
// or an external UCI engine and filtered by an evaluation band, as EPD: what `build --exits`
// writes, for a book already built, and in batches for a cluster (book/exits.h):
//
//   bookforge exits BOOK -o EXITS.epd [--depth D | --nodes N] [--eval-min CP] [--eval-max CP]
//                   [--engine PATH] [--threads T] [--hash MB] [--batch i/N]
#include <algorithm>
#include <memory>
#include <string>
#include <thread>

#include "base/batch.h"
#include "book/exits.h"
#include "cli/command.h"
#include "cli/exit_options.h"
#include "cli/help_default.h"
#include "cli/number_option.h"
#include "cli/output_path.h"

namespace bookforge::cli {
namespace {

struct ExitsCommandOptions {
  std::string book;
  std::string output;
  book::ExitOptions exits;
  std::string batch = Batch{}.describe();
  int threads = 0;  // 0: all cores
  bool quiet = false;
};

int run_exits(ExitsCommandOptions opts) {
  Result<Batch> batch = parse_batch(opts.batch);
  if (!batch) {
    print_error("--batch " + batch.error().message);
    return kExitUsage;
  }
  opts.exits.batch = *batch;
  if (opts.exits.nodes > 0) opts.exits.depth = 0;
  opts.exits.threads =
      opts.threads > 0 ? opts.threads : std::max(1, int(std::thread::hardware_concurrency()));
  if (Status s = opts.exits.validate(); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  if (opts.output != "-")
    if (Status s = check_outputs({{"-o", opts.output}}, {opts.book}); !s.ok()) {
      print_error(s.error().message);
      return kExitUsage;
    }
  if (Status s = write_exits(opts.output, opts.exits, opts.book, opts.quiet); !s.ok()) {
    print_error(s.error().message);
    return kExitFailure;
  }
  return kExitOk;
}

void setup_exits(CLI::App& root) {
  auto opts = std::make_shared<ExitsCommandOptions>();
  const book::ExitOptions defaults;
  CLI::App* cmd =
      add_subcommand(root, "exits",
                     "Write a book's exit positions (where its lines end), searched by the embedded "
                     "engine or an external one, as EPD: what build --exits writes");
  cmd->add_option("book", opts->book, "The Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book")
      ->required();
  cmd->add_option("-o,--output", opts->output, "The EPD file to write ('-' = standard output)")->required();
  CLI::Option* depth = cmd->add_option("--depth", opts->exits.depth,
                                       "Search each exit to this depth " + shown(double(defaults.depth)))
                           ->transform(whole_number(1, engine::kMaxPly - 1));
  cmd->add_option("--nodes", opts->exits.nodes, "... or with this many nodes")
      ->transform(whole_number(1, kNoLimit))
      ->excludes(depth);
  cmd->add_option("--eval-min", opts->exits.eval_min,
                  "Keep exits scoring at least this many centipawns, from White's point of view")
      ->transform(whole_number(-engine::kScoreInfinite, engine::kScoreInfinite));
  cmd->add_option("--eval-max", opts->exits.eval_max, "... and at most this many")
      ->transform(whole_number(-engine::kScoreInfinite, engine::kScoreInfinite));
  cmd->add_option("--engine", opts->exits.engine_path, kExitEngineHelp);
  cmd->add_option("--threads", opts->threads, "Search threads, one engine each (0 = all cores)")
      ->transform(whole_number(0, kMaxThreads));
  cmd->add_option("--hash", opts->exits.hash_mb,
                  "Transposition table per thread, in MB " + shown(double(defaults.hash_mb)))
      ->transform(whole_number(1, kMaxHashMb));
  cmd->add_option(
         "--batch", opts->batch,
         "Only the i-th (from 0) of N equal slices of the exits in the book's walk order, taken before "
         "the search and the band: the N batches' files, concatenated in order, are the whole file")
      ->default_str(opts->batch);
  cmd->add_flag("--quiet,-q", opts->quiet, "No summary line");
  cmd->callback([opts] { set_exit_code(run_exits(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("exits", setup_exits);

}  // namespace bookforge::cli
