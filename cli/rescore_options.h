// The engine-rescoring flags of `bookforge build` (--rescore-depth/--rescore-nodes, margin,
// blend, engine, --suspicious, the plan and verdicts of rescoring in batches...), and what
// happens around the rescoring pass: options from the flags, the progress line, the
// suspicious-moves CSV and a summary.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "book/rescore.h"
#include "cli/command.h"
#include "cli/filter_options.h"

namespace bookforge::cli {

// The defaults are book::RescoreOptions's own.
struct RescoreFlags {
  int depth = 0;
  uint64_t nodes = 0;
  int margin_cp = book::RescoreOptions{}.margin_cp;
  bool repair = false;
  bool propagate = false;
  double blend = book::RescoreOptions{}.blend;
  bool engine_alone = false;
  std::string engine;
  std::string eval = "network";  // the embedded engine's evaluation: network or classical
  int hash_mb = book::RescoreOptions{}.hash_mb;
  std::string suspicious;  // CSV path
  double suspicious_share = book::RescoreOptions{}.suspicious_share;
  int suspicious_margin_cp = book::RescoreOptions{}.suspicious_margin_cp;
  std::string plan;                   // --rescore-plan: write the plan of the searches, no book
  std::vector<std::string> verdicts;  // --rescore-verdicts: take these verdicts instead of searching
  CLI::Option* depth_opt = nullptr;
  CLI::Option* nodes_opt = nullptr;
};

void add_rescore_options(CLI::App* cmd, RescoreFlags& flags);

// The rescoring options when --rescore-depth or --rescore-nodes was given, none otherwise (or an
// error for a flag that needs them). Threads and the progress line follow the read flags.
Result<std::optional<book::RescoreOptions>> make_rescore_options(const RescoreFlags& flags,
                                                                 const ReadFlags& read);

// The progress line of rescoring on stderr ("rescoring 12.5%  40/320 positions ..."), for
// RescoreOptions::on_progress.
std::function<void(uint64_t done, uint64_t total)> make_rescore_progress();

// With --rescore-plan, unless quiet: one summary line.
void print_plan_summary(const RescoreFlags& flags, const book::RescoreOptions& options, uint64_t positions);

// After the book is written: the suspicious-moves CSV (an OutputFile, base/output_file.h)
// and, unless quiet, one summary line.
Status finish_rescore(const RescoreFlags& flags, const book::RescoreStats& stats,
                      const std::vector<book::SuspiciousMove>& suspicious, bool quiet);

}  // namespace bookforge::cli
