#include "store/add.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "base/content_hash.h"
#include "counts/duplicate_filter.h"
#include "counts/slice.h"
#include "store/add_write.h"
#include "store/game_references.h"

namespace bookforge::store {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void add_read_stats(pgn::ReadStats& total, const pgn::ReadStats& part, size_t max_examples) {
  total.games += part.games;
  total.accepted += part.accepted;
  for (const auto& [name, n] : part.rejected) total.rejected[name] += n;
  total.bad += part.bad;
  for (const auto& [name, n] : part.bad_reasons) total.bad_reasons[name] += n;
  for (const pgn::BadGame& bad : part.bad_examples)
    if (total.bad_examples.size() < max_examples) total.bad_examples.push_back(bad);
  total.unsupported_variant += part.unsupported_variant;
  total.plies += part.plies;
  total.bytes += part.bytes;
  total.seconds += part.seconds;
}

Result<std::vector<AddedInput>> digest_inputs(const std::vector<std::string>& names) {
  std::vector<AddedInput> inputs;
  for (const std::string& name : names) {
    AddedInput in{name, std::nullopt, std::nullopt};
    if (name != "-") {
      Result<FileDigest> d = digest_file(name);
      if (!d) return d.error();
      in.digest = *d;
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

}  // namespace

Result<StoreAddReport> store_add(const StoreAddOptions& options) {
  StoreAddReport report;
  const auto start = Clock::now();
  const CountingSettings settings{options.pipeline.filter.describe(), options.pipeline.max_ply,
                                  options.tally.count_repeats};

  // Step 1. Open what exists and refuse duplicates and mismatched settings.
  Result<std::optional<Store>> opened = open_store_to_add(options.db_path);
  if (!opened) return opened.error();
  std::optional<Store>& existing = *opened;
  report.created = !existing;
  Result<std::vector<AddedInput>> inputs = digest_inputs(options.pipeline.inputs);
  if (!inputs) return inputs.error();
  Result<std::vector<std::string>> reasons = add_refusals(existing ? &*existing : nullptr, *inputs, settings);
  if (!reasons) return reasons.error();
  if (!reasons->empty() && !options.force) return refused(*reasons);
  report.forced = *reasons;
  counts::DuplicateFilter duplicates(options.keep_duplicates ? counts::DuplicateFilter::Copies::kKeep
                                                             : counts::DuplicateFilter::Copies::kDrop);
  if (existing)
    if (Status s = existing->for_each_game_fingerprint([&](uint64_t f) { duplicates.remember(f); }); !s)
      return s.error();
  GamesToAdd games;
  Result<int> plies = game_plies_for(existing ? &*existing : nullptr, options.game_plies);
  if (!plies) return plies.error();
  games.plies = *plies;

  // Step 2. Count every input into one tally, one pipeline pass per file.
  counts::TallyOptions tally_options = options.tally;
  tally_options.workers = pgn::pipeline_threads(options.pipeline);
  // The store keeps everything an explorer shows: both players' ratings, and the counts of
  // every slice of the games (speed, rating band, month: counts/slice.h).
  tally_options.ratings = true;
  tally_options.opponent_ratings = true;
  tally_options.slice_of = counts::slice_of_game;
  // The game references take their share of the budget from the tally's (store/game_references.h).
  const uint64_t references_memory = take_references_memory(tally_options);
  Result<std::unique_ptr<counts::Tally>> made = counts::Tally::create(tally_options);
  if (!made) return made.error();
  counts::Tally& tally = **made;
  GameReferences references(games.plies, references_memory, tally_options.workers, tally_options.tmp_dir);
  games.records = [&]() -> Result<std::unique_ptr<GameRecordStream>> { return references.records(); };
  games.positions = [&] { return references.positions(); };
  std::vector<SourceRecord> sources;
  for (AddedInput& in : *inputs) {
    pgn::PipelineOptions one = options.pipeline;
    one.inputs = {in.name};
    // The decompressed content is hashed as it is read: the same games in another compression
    // are the same source.
    ContentHasher content;
    uint64_t content_size = 0;
    one.on_input_bytes = [&](size_t, std::string_view bytes) {
      content.update({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
      content_size += bytes.size();
    };
    const uint64_t duplicates_before = duplicates.duplicates();
    // The references see every copy (they keep the first by input and number); the tally only
    // what the duplicate filter lets through.
    Result<pgn::ReadStats> read = pgn::read_games(
        one, references.wrap(duplicates.wrap([&](int index) -> pgn::GameSink& { return tally.sink(index); }),
                             int64_t(sources.size())));
    if (!read) return read.error();
    const uint64_t copies = duplicates.duplicates() - duplicates_before;
    add_read_stats(report.read, *read, size_t(std::max(options.pipeline.max_reported_bad_games, 0)));
    SourceRecord source;
    source.name = in.name;
    // Standard input is known by its content alone, once read.
    in.content = FileDigest{content_size, content.digest()};
    if (in.digest) source.size = in.digest->size;
    source.hash = in.content->hex();
    source.games = read->accepted - (options.keep_duplicates ? 0 : copies);
    source.settings = settings;
    sources.push_back(std::move(source));
  }
  // The contents are known now: a compressed copy of a file given or added before is refused.
  if (!existing) {
    Result<std::vector<std::string>> again = add_refusals(nullptr, *inputs, settings);
    if (!again) return again.error();
    if (Status s = accept_refusals(*again, options.force, report); !s) return s.error();
  }
  Result<std::unique_ptr<counts::EntryStream>> entries = tally.finish();
  if (!entries) return entries.error();
  report.tally = tally.stats();
  report.duplicates = duplicates.duplicates();
  if (Status s = references.status(); !s) return s.error();
  games.new_games = report.read.accepted - report.duplicates;
  report.read_seconds = seconds_since(start);

  // Step 3. Merge in one transaction (existing store) or under a temporary name (new store).
  const auto merge_start = Clock::now();
  AddWrite write;
  write.db_path = options.db_path;
  write.existing = &existing;
  write.entries = entries->get();
  write.sources = sources;
  write.games = std::move(games);
  write.settings = settings;
  write.force = options.force;
  // Another add may have committed the same file between step 1 and the write lock.
  write.refusals_again = [&](Store& store) { return add_refusals(&store, *inputs, settings); };
  write.on_merge_row = options.on_merge_row;
  if (Status s = write_add(write, report); !s) return s.error();
  report.merge_seconds = seconds_since(merge_start);
  report.sources = std::move(sources);
  return report;
}

}  // namespace bookforge::store
