// bookforge scan: reads PGN files exactly as a build would (same filters, same replay up to
// --max-ply) and reports what it found, without building anything.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/filter_options.h"
#include "cli/read_report.h"
#include "json/read_json.h"
#include "pgn/pipeline.h"

namespace bookforge::cli {
namespace {

struct ScanOptions {
  std::vector<std::string> files;
  FilterFlags filter;
  ReadFlags read;
  bool json = false;
};

// Scan keeps nothing of the games it replays.
class DiscardSink final : public pgn::GameSink {
 public:
  void on_game(const pgn::ReplayedGame&) override {}
};

int run_scan(const ScanOptions& opts) {
  Result<pgn::PipelineOptions> options = make_pipeline_options(opts.files, opts.filter, opts.read);
  if (!options) {
    print_error(options.error().message);
    return kExitUsage;
  }
  std::vector<DiscardSink> sinks(size_t(pgn::pipeline_threads(*options)));
  Result<pgn::ReadStats> stats =
      pgn::read_games(*options, [&](int i) -> pgn::GameSink& { return sinks[size_t(i)]; });
  if (!stats) {
    print_error(stats.error().message);
    return kExitFailure;
  }
  if (opts.json) {
    // The read, then how it was made.
    json::Json report = json::to_json(*stats);
    report["max_ply"] = options->max_ply;
    report["threads"] = sinks.size();
    report["filters"] = json::outside_text(options->filter.describe());
    std::puts(json::json_text(report).c_str());
  } else {
    std::printf("%s", format_read_summary(*stats).c_str());
  }
  return kExitOk;
}

void setup_scan(CLI::App& root) {
  auto opts = std::make_shared<ScanOptions>();
  CLI::App* cmd = add_subcommand(root, "scan", "Read PGN files as a build would and report what they hold");
  cmd->add_option("files", opts->files, "PGN files: plain, gzip, bzip2, xz or zstd ('-' = standard input)")
      ->required();
  add_filter_options(cmd, opts->filter);
  add_read_options(cmd, opts->read);
  cmd->add_flag("--json", opts->json, "Print the report as one JSON object");
  cmd->callback([opts] { set_exit_code(run_scan(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("scan", setup_scan);

}  // namespace bookforge::cli
