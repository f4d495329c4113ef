// `bookforge build` as one call: games in (PGN files, a store made by `db add`, or any game
// source), a Polyglot book out. Every caller (the CLI, the benchmarks, the tests, a server)
// goes through it, so each one runs the stages the way the others do:
//
//   games --> read (pgn::read_games, one sink per worker) --> tally (counts/)
//         --> one (key, move) stream per partition, in key order
//         --> selection rules on every partition at once (book/book_builder.h)
//         --> optional engine rescoring (book/rescore.h) --> Polyglot writer --> the book
//
// A store replaces the first two stages: its rows are already counted, in key order (read
// ahead on a second core while the rules take them). So do sets of counts made by `count`
// (book/counts_for_build.h): summed per key range, one stream per range.
//
// The book is written under a temporary name and put in place only when complete; an empty
// book is not written unless allowed. Nothing is printed: progress goes through the callbacks
// of the pipeline and rescore options, everything else into the report.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/book_builder.h"
#include "book/rescore.h"
#include "book/selection_rules.h"
#include "counts/slice.h"
#include "counts/tally.h"
#include "pgn/pipeline.h"

namespace bookforge::book {

// Reads games into the sinks of `workers` workers (sink(i) for i in 0 .. workers-1, each from
// one thread at a time), as pgn::read_games does.
using GameSource = std::function<Result<pgn::ReadStats>(int workers, const pgn::SinkFactory& sink)>;

struct BuildRequest {
  std::string output;  // the book (.bin)

  // Where the games come from: exactly one of pipeline.inputs (PGN files), from_db (a store),
  // from_counts (sets of counts), or games (tests and benchmarks replaying games held in memory).
  pgn::PipelineOptions pipeline;  // inputs, filters, threads, progress; max_ply comes from rules
  std::string from_db;
  std::vector<std::string> from_counts;  // folders made by `count`
  uint32_t key_range = 0;                // with from_counts: only this key range of key_ranges
  uint32_t key_ranges = 1;
  counts::SliceFilter from_db_slices;  // with from_db: only the games of these slices
  GameSource games;

  // The rules, as resolved from a preset and flags. With from_db, the store's max-ply and repeat
  // counting replace the rules' (they shaped its counts); given explicitly with other values,
  // or with filters other than the store's, they are an error. Likewise with from_counts, where
  // any filter is an error, and so is keeping duplicates when the sets did not.
  SelectionRules rules;
  bool max_ply_given = false;
  bool count_repeats_given = false;
  bool keep_duplicates_given = false;

  // Memory budget and spill folder ("" = the book's folder). Workers, repeat counting and
  // ratings follow the threads and the rules.
  counts::TallyOptions tally;
  std::optional<RescoreOptions> rescore;  // engine rescoring of the candidates
  // With rescore: write the plan of its searches here (book/rescore_plan.h) and no book; output
  // is then not needed, and spills go beside the plan.
  std::string rescore_plan;
  // With rescore: verdicts searched elsewhere (book/rescore_verdicts.h), read before the games.
  std::vector<std::string> rescore_verdicts;
  bool allow_empty = false;  // write a book with no entries
};

struct BuildReport {
  SelectionRules rules;      // as applied (with a store: its counting settings)
  pgn::ReadStats read;       // for a store: accepted = the games it holds
  counts::TallyStats tally;  // zero for a store
  int threads = 0;
  std::string tmp_dir;
  BuildOutcome outcome;
  std::optional<RescoreStats> rescore;
  std::vector<SuspiciousMove> suspicious;  // when rescore.find_suspicious
  std::vector<RepairedPosition> repaired;  // when rescore.repair
  std::vector<std::string> warnings;       // e.g. store sources added with other settings
  bool written = false;                    // false for an empty book not allowed, or a plan
  uint64_t planned = 0;                    // with rescore_plan: the positions it lists
  double read_seconds = 0;                 // reading and counting
  double rules_seconds = 0;                // rules, rescoring and writing
  // PGN inputs: accepted games that were copies of earlier ones (counts/duplicate_filter.h), unless
  // the rules keep duplicates.
  uint64_t duplicates_dropped = 0;
};

Result<BuildReport> build(const BuildRequest& request);

}  // namespace bookforge::book
