#include "book/build.h"

#include <chrono>
#include <memory>

#include "book/counts_for_build.h"
#include "book/from_db.h"
#include "book/polyglot/writer.h"
#include "book/rescore_plan.h"
#include "book/rescore_verdicts.h"
#include "counts/duplicate_filter.h"
#include "counts/prefetch_stream.h"

namespace bookforge::book {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The counted entries, one stream per partition in key order, and what owns them.
struct Counted {
  std::unique_ptr<counts::Tally> tally;                     // PGN or game source
  std::unique_ptr<store::StoreForBuild> store;              // --from-db
  std::unique_ptr<CountsForBuild> counts;                   // --from-counts
  std::vector<std::unique_ptr<counts::EntryStream>> owned;  // the partitions, or the store scan
  std::unique_ptr<counts::PrefetchStream> prefetched;       // the store scan, read ahead
  std::vector<counts::EntryStream*> streams;                // what the rules read
};

Status count_store(const BuildRequest& request, BuildReport& report, Counted& counted) {
  store::FromDbRequest from_db{request.max_ply_given, request.count_repeats_given,
                               request.pipeline.filter.empty() ? "" : request.pipeline.filter.describe()};
  Result<std::unique_ptr<store::StoreForBuild>> opened =
      store::open_store_for_build(request.from_db, from_db, report.rules);
  if (!opened) return opened.error();
  counted.store = std::move(*opened);
  report.warnings = counted.store->warnings;
  report.read.accepted = counted.store->games;
  Result<std::unique_ptr<counts::EntryStream>> scan = counted.store->store.scan(request.from_db_slices);
  if (!scan) return scan.error();
  counted.owned.push_back(std::move(*scan));
  // The store's scan is one stream: merged on a second core while the rules read it.
  if (report.threads > 1) {
    counted.prefetched = std::make_unique<counts::PrefetchStream>(*counted.owned.front());
    counted.streams.push_back(counted.prefetched.get());
  } else {
    counted.streams.push_back(counted.owned.front().get());
  }
  return ok_status();
}

Status count_sets(const BuildRequest& request, BuildReport& report, Counted& counted) {
  FromCountsRequest from_counts{request.key_range,
                                request.key_ranges,
                                request.max_ply_given,
                                request.count_repeats_given,
                                request.keep_duplicates_given,
                                !request.pipeline.filter.empty()};
  Result<std::unique_ptr<CountsForBuild>> opened =
      open_counts_for_build(request.from_counts, from_counts, report.rules);
  if (!opened) return opened.error();
  counted.counts = std::move(*opened);
  report.warnings = counted.counts->warnings;
  const counts::CountsHeader& total = counted.counts->total;
  // As a build of the PGN reports them: the games another set held count as copies dropped.
  report.duplicates_dropped = total.duplicates_dropped + total.games_skipped;
  report.read.games = total.games_read;
  report.read.accepted = total.games_kept + report.duplicates_dropped;
  report.read.bad = total.games_bad;
  for (const auto& stream : counted.counts->streams) counted.streams.push_back(stream.get());
  return ok_status();
}

Status count_games(const BuildRequest& request, BuildReport& report, Counted& counted) {
  counts::TallyOptions options = request.tally;
  options.tmp_dir = report.tmp_dir;
  options.workers = report.threads;
  options.count_repeats = report.rules.count_repeats;
  options.ratings = report.rules.needs_ratings();
  Result<std::unique_ptr<counts::Tally>> tally = counts::Tally::create(options);
  if (!tally) return tally.error();
  counted.tally = std::move(*tally);
  auto sink = [&](int i) -> pgn::GameSink& { return counted.tally->sink(i); };
  counts::DuplicateFilter duplicates(counts::DuplicateFilter::Copies::kDrop);
  Result<pgn::ReadStats> read = request.games ? request.games(report.threads, sink) : [&] {
    pgn::PipelineOptions pipeline = request.pipeline;
    pipeline.max_ply = report.rules.max_ply;
    return pgn::read_games(pipeline,
                           report.rules.keep_duplicates ? pgn::SinkFactory(sink) : duplicates.wrap(sink));
  }();
  if (!read) return read.error();
  report.duplicates_dropped = duplicates.duplicates();
  report.read = std::move(*read);
  // The tally comes as one stream per partition, which the rules take all at once.
  Result<std::vector<std::unique_ptr<counts::EntryStream>>> partitions = counted.tally->finish_partitions();
  if (!partitions) return partitions.error();
  counted.owned = std::move(*partitions);
  for (const auto& partition : counted.owned) counted.streams.push_back(partition.get());
  report.tally = counted.tally->stats();
  return ok_status();
}

}  // namespace

Result<BuildReport> build(const BuildRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const int sources = int(!request.pipeline.inputs.empty()) + int(!request.from_db.empty()) +
                      int(!request.from_counts.empty()) + int(bool(request.games));
  if (sources != 1)
    return Error{"a build reads PGN files, a store, sets of counts or a game source: exactly one of them"};
  BuildReport report;
  report.rules = request.rules;
  if (Status s = report.rules.validate(); !s.ok()) return s.error();
  if (request.rescore)
    if (Status s = request.rescore->validate(); !s.ok()) return s.error();
  const bool planning = !request.rescore_plan.empty();
  if ((planning || !request.rescore_verdicts.empty()) && !request.rescore)
    return Error{"a rescoring plan or verdicts need the rescoring's limits"};

  // The output first, so that an unwritable target fails before any reading. Spills go beside
  // the book unless told otherwise: that folder must be writable anyway. A plan's build writes
  // its book beside the plan, without a name, and never puts it in place.
  Result<PolyglotWriter> writer = PolyglotWriter::create(planning ? request.rescore_plan : request.output);
  if (!writer) return writer.error();
  report.tmp_dir = request.tally.tmp_dir.empty() ? writer->folder() : request.tally.tmp_dir;
  report.threads = pgn::pipeline_threads(request.pipeline);
  std::optional<RescoreOptions> rescore = request.rescore;
  if (!request.rescore_verdicts.empty()) {
    Result<std::shared_ptr<const VerdictTable>> verdicts =
        VerdictTable::read(request.rescore_verdicts, rescore->limits());
    if (!verdicts) return verdicts.error();
    rescore->verdicts = std::move(*verdicts);
  }

  Counted counted;
  Status counting = !request.from_db.empty()       ? count_store(request, report, counted)
                    : !request.from_counts.empty() ? count_sets(request, report, counted)
                                                   : count_games(request, report, counted);
  if (!counting.ok()) return counting.error();
  report.read_seconds = seconds_since(start);

  std::unique_ptr<Rescorer> rescorer;
  std::unique_ptr<RescorePlanner> planner;
  if (planning)
    planner = std::make_unique<RescorePlanner>(rescore->limits());
  else if (rescore)
    rescorer = std::make_unique<Rescorer>(std::move(*rescore));
  CandidateTransformer* transformer =
      planner ? static_cast<CandidateTransformer*>(planner.get()) : rescorer.get();
  Result<BuildOutcome> outcome = build_book(counted.streams, report.rules, transformer, *writer);
  if (!outcome) return outcome.error();
  report.outcome = std::move(*outcome);
  if (planner) {
    if (Status s = planner->write(request.rescore_plan); !s.ok()) return s.error();
    report.planned = planner->positions();
    report.rules_seconds = seconds_since(start) - report.read_seconds;
    return report;
  }
  if (rescorer) {
    report.rescore = rescorer->stats();
    report.suspicious = rescorer->suspicious();
    report.repaired = rescorer->repaired();
  }
  // An empty book is almost always a mistake (filters or rules too strict): it is left out
  // unless allowed, and the caller says why.
  if (report.outcome.stages.back().entries > 0 || request.allow_empty) {
    Result<uint64_t> committed = writer->commit();
    if (!committed) return committed.error();
    report.written = true;
  }
  report.rules_seconds = seconds_since(start) - report.read_seconds;
  return report;
}

}  // namespace bookforge::book
