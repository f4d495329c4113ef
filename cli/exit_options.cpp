#include "cli/exit_options.h"

#include <cstdio>

#include "base/output_file.h"
#include "book/book_file.h"
#include "cli/help_default.h"
#include "cli/number_option.h"
#include "cli/standard_output.h"

namespace bookforge::cli {

void add_exit_options(CLI::App* cmd, ExitFlags& f) {
  const std::string group = "Exit positions";
  cmd->add_option("--exits", f.path,
                  "Write the book's exit positions (where its lines end), evaluated by the embedded engine "
                  "or --exit-engine, to this EPD file")
      ->group(group);
  f.depth_opt = cmd->add_option("--exit-depth", f.depth,
                                "Search each exit to this depth " + shown(double(book::ExitOptions{}.depth)))
                    ->transform(whole_number(1, engine::kMaxPly - 1))
                    ->group(group);
  f.nodes_opt = cmd->add_option("--exit-nodes", f.nodes, "... or with this many nodes")
                    ->transform(whole_number(1, kNoLimit))
                    ->excludes(f.depth_opt)
                    ->group(group);
  f.min_opt = cmd->add_option("--exit-eval-min", f.eval_min,
                              "Keep exits scoring at least this many centipawns, from White's point of view")
                  ->transform(whole_number(-engine::kScoreInfinite, engine::kScoreInfinite))
                  ->group(group);
  f.max_opt = cmd->add_option("--exit-eval-max", f.eval_max, "... and at most this many")
                  ->transform(whole_number(-engine::kScoreInfinite, engine::kScoreInfinite))
                  ->group(group);
  f.engine_opt = cmd->add_option("--exit-engine", f.engine, kExitEngineHelp)->group(group);
}

Result<std::optional<book::ExitOptions>> make_exit_options(const ExitFlags& f, const ReadFlags& read) {
  if (f.path.empty()) {
    for (const CLI::Option* o : {f.depth_opt, f.nodes_opt, f.min_opt, f.max_opt, f.engine_opt})
      if (o && o->count() > 0) return Error{o->get_name() + " needs --exits"};
    return std::optional<book::ExitOptions>();
  }
  book::ExitOptions o;
  o.nodes = f.nodes;
  o.depth = f.nodes > 0 ? 0 : f.depth;
  o.eval_min = f.eval_min;
  o.eval_max = f.eval_max;
  o.engine_path = f.engine;
  o.threads = read_threads(read);
  if (Status s = o.validate(); !s.ok()) return s.error();
  return std::optional<book::ExitOptions>(o);
}

Status write_exits(const std::string& epd_path, const book::ExitOptions& options,
                   const std::string& book_path, bool quiet) {
  Result<book::PolyglotBook> opened = book::open_book_file(book_path);
  if (!opened) return opened.error();
  book::ExitStats stats;
  Result<std::vector<book::ExitPosition>> exits = book::book_exits(*opened, options, stats);
  if (!exits) return exits.error();
  const bool to_stdout = epd_path == "-";
  const std::string epd = book::exits_epd(*exits, stats.engine);
  if (Status s = to_stdout ? put_standard_output(epd) : write_output_file(epd_path, epd); !s.ok()) return s;
  if (quiet) return ok_status();
  const auto count = [](uint64_t n) { return static_cast<unsigned long long>(n); };
  std::FILE* summary = to_stdout ? stderr : stdout;
  if (options.batch == Batch{})
    std::fprintf(summary, "%s: %llu of the book's %llu exit positions\n", epd_path.c_str(), count(stats.kept),
                 count(stats.exits));
  else
    std::fprintf(summary, "%s: %llu of the %llu exit positions of batch %s (the book has %llu)\n",
                 epd_path.c_str(), count(stats.kept), count(stats.in_batch), options.batch.describe().c_str(),
                 count(stats.exits));
  return ok_status();
}

}  // namespace bookforge::cli
