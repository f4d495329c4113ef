#include "counts/count_to_set.h"

#include <chrono>
#include <functional>
#include <memory>

#include "base/content_hash.h"
#include "counts/counted_games.h"
#include "counts/counts_set.h"
#include "counts/duplicate_filter.h"
#include "counts/entry_merge.h"
#include "counts/slice.h"
#include "pgn/source.h"

namespace bookforge::counts {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The decompressed size and content hash of an input, in a pass that reads nothing else.
Result<FileDigest> measure_input(const std::string& path) {
  if (path == "-") return Error{"--part needs files: standard input cannot be read twice"};
  Result<std::unique_ptr<pgn::ByteSource>> source = pgn::open_source(path);
  if (!source) return source.error();
  std::vector<char> buffer(1 << 20);
  ContentHasher hasher;
  FileDigest digest;
  for (;;) {
    Result<size_t> n = (*source)->read(buffer.data(), buffer.size());
    if (!n) return n.error();
    if (*n == 0) break;
    hasher.update({reinterpret_cast<const unsigned char*>(buffer.data()), *n});
    digest.size += *n;
  }
  digest.hash = hasher.digest();
  return digest;
}

// The part's bytes of an input of `size` bytes: the parts tile the input; the last one takes
// everything to the end.
pgn::ByteRange part_range(uint64_t size, const InputPart& part) {
  pgn::ByteRange range;
  range.begin = part.begin(size);
  if (part.index + 1 < part.count) range.end = part.end(size);
  return range;
}

// The tally's partitions as groups of the set's ranges: when the partitions are a power of two,
// each group is as many of them as share the group's key range, and the groups are written at
// once; otherwise one group of them all.
std::vector<std::unique_ptr<EntryStream>> range_groups(std::vector<std::unique_ptr<EntryStream>> partitions,
                                                       uint32_t ranges) {
  const size_t p = partitions.size();
  const size_t groups = (p & (p - 1)) == 0 ? std::min<size_t>(p, ranges) : 1;
  std::vector<std::unique_ptr<EntryStream>> out;
  for (size_t g = 0; g < groups; ++g) {
    std::vector<std::unique_ptr<EntryStream>> members;
    for (size_t i = g * p / groups; i < (g + 1) * p / groups; ++i)
      members.push_back(std::move(partitions[i]));
    out.push_back(std::make_unique<ConcatStream>(std::move(members)));
  }
  return out;
}

}  // namespace

Result<CountReport> count_to_set(const CountRequest& request) {
  const Clock::time_point start = Clock::now();
  // Step 1. The output folder and the parts' byte ranges, before the long read.
  if (Status s = check_partitions(request.partitions); !s.ok()) return s.error();
  if (Status s = prepare_set_folder(request.output); !s.ok()) return s.error();
  CountReport report;
  CountsHeader& header = report.header;
  header.options.max_ply = request.pipeline.max_ply;
  header.options.count_repeats = request.count_repeats;
  header.options.filters = request.pipeline.filter.describe();
  header.options.keep_duplicates = request.keep_duplicates;
  const bool for_store = request.counts_for == CountsFor::kStore;
  header.options.ratings = for_store || request.ratings;
  header.options.opponent_ratings = for_store;
  header.options.slices = for_store;
  header.partitions = request.partitions;
  pgn::PipelineOptions pipeline = request.pipeline;
  for (const std::string& input : pipeline.inputs) {
    CountedInput in{input, request.part, 0, 0};
    if (request.part.count > 1) {
      Result<FileDigest> measured = measure_input(input);
      if (!measured) return measured.error();
      in.size = measured->size;
      in.hash = measured->hash;
      pipeline.game_starts.push_back(part_range(in.size, request.part));
    }
    header.inputs.push_back(std::move(in));
  }

  // Step 2. Count as build does, everything its purpose needs kept; a whole input is hashed as
  // it is read.
  TallyOptions options = request.tally;
  if (options.tmp_dir.empty()) options.tmp_dir = request.output;
  options.workers = pgn::pipeline_threads(pipeline);
  options.count_repeats = request.count_repeats;
  options.ratings = header.options.ratings;
  options.opponent_ratings = for_store;
  if (for_store) options.slice_of = counts::slice_of_game;
  Result<std::unique_ptr<Tally>> tally = Tally::create(options);
  if (!tally) return tally.error();
  std::vector<ContentHasher> hashers(pipeline.inputs.size());
  if (request.part.count == 1)
    pipeline.on_input_bytes = [&](size_t input, std::string_view bytes) {
      hashers[input].update({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
      header.inputs[input].size += bytes.size();
    };
  DuplicateFilter duplicates(DuplicateFilter::Copies::kDrop);
  CountedGames counted(request.skip);
  pgn::SinkFactory sink = [&](int i) -> pgn::GameSink& { return (*tally)->sink(i); };
  if (request.extras) sink = request.extras->wrap_counted(std::move(sink), pipeline.inputs);
  if (!request.keep_duplicates) sink = duplicates.wrap(std::move(sink));
  // A book's counts that keep every copy of a game leave their game list empty: sets of kept
  // copies are never searched for shared games, and hashing every game costs a few per cent.
  if (for_store || !request.keep_duplicates || !request.skip.empty()) sink = counted.wrap(std::move(sink));
  if (request.extras) sink = request.extras->wrap_read(std::move(sink), pipeline.inputs);
  Result<pgn::ReadStats> read = pgn::read_games(pipeline, sink);
  if (!read) return read.error();
  if (request.part.count == 1)
    for (size_t i = 0; i < hashers.size(); ++i) header.inputs[i].hash = hashers[i].digest();
  report.read = std::move(*read);
  Result<std::vector<std::unique_ptr<EntryStream>>> partitions = (*tally)->finish_partitions();
  if (!partitions) return partitions.error();
  report.tally = (*tally)->stats();
  header.games_read = report.read.games;
  header.games_kept = report.tally.games;
  header.games_bad = report.read.bad;
  header.games_skipped = counted.skipped();
  header.duplicates_dropped = request.keep_duplicates ? 0 : duplicates.duplicates();
  report.read_seconds = seconds_since(start);

  // Step 3. The ranges, the extras' files, then the game list; the ranges on the threads the
  // tally's partitions are merged on.
  std::function<Result<uint64_t>()> extras;
  if (request.extras) extras = [&] { return request.extras->write(request.output, header, request.skip); };
  Result<uint64_t> bytes =
      write_set(request.output, header, range_groups(std::move(*partitions), request.partitions),
                GameList{0, counted.fingerprints()}, (*tally)->finishing_threads(), extras);
  if (!bytes) return bytes.error();
  report.bytes = *bytes;
  report.write_seconds = seconds_since(start) - report.read_seconds;
  return report;
}

}  // namespace bookforge::counts
