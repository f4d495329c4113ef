#include "store/add.h"

#include "counts/slice.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include "base/content_hash.h"
#include "base/temp_file.h"
#include "counts/duplicate_filter.h"
#include "counts/prefetch_stream.h"
#include "store/game_references.h"

namespace bookforge::store {
namespace {

namespace fs = std::filesystem;
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

struct Input {
  std::string name;
  std::optional<FileDigest> digest;   // of the file's bytes; absent for standard input
  std::optional<FileDigest> content;  // of its decompressed bytes, once read (not for stdin)
  // The hashes this input is known by: its bytes, and its content when that differs.
  std::vector<std::string> hashes() const {
    std::vector<std::string> out;
    if (digest) out.push_back(digest->hex());
    if (content && (!digest || content->hash != digest->hash)) out.push_back(content->hex());
    return out;
  }
};

Result<std::vector<Input>> digest_inputs(const std::vector<std::string>& names) {
  std::vector<Input> inputs;
  for (const std::string& name : names) {
    Input in{name, std::nullopt, std::nullopt};
    if (name != "-") {
      Result<FileDigest> d = digest_file(name);
      if (!d) return d.error();
      in.digest = *d;
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

std::string describe_source(const SourceRecord& s) {
  return "added " + s.added + " as " + s.name + ", " + std::to_string(s.games) + " games";
}

// Every reason to refuse this add; each is overridden by --force.
Result<std::vector<std::string>> refusals(Store* store, const std::vector<Input>& inputs,
                                          const CountingSettings& settings) {
  std::vector<std::string> reasons;
  std::map<std::string, const Input*> seen;
  for (const Input& in : inputs) {
    for (const std::string& hash : in.hashes()) {
      auto [it, fresh] = seen.emplace(hash, &in);
      if (!fresh && it->second != &in) {
        reasons.push_back(in.name + ": same content as " + it->second->name + ", given twice");
        break;
      }
    }
    if (!store) continue;
    for (const std::string& hash : in.hashes()) {
      Result<std::optional<SourceRecord>> found = store->find_source_by_hash(hash);
      if (!found) return found.error();
      if (*found) {
        reasons.push_back(in.name + ": already in the store (" + describe_source(**found) + ")");
        break;
      }
    }
  }
  if (store) {
    Result<std::optional<CountingSettings>> recorded = store->settings();
    if (!recorded) return recorded.error();
    if (*recorded && **recorded != settings)
      reasons.push_back(store->path() + ": built with " + (*recorded)->describe() + "; this add uses " +
                        settings.describe());
  }
  return reasons;
}

Error refused(const std::vector<std::string>& reasons) {
  std::string message = reasons.front();
  for (size_t i = 1; i < reasons.size(); ++i) message += "; " + reasons[i];
  return Error{message + " (nothing was added; --force adds anyway)"};
}

// Refusals found once more is known (after the read, under the write lock): an error unless
// forced; forced ones not reported yet join report.forced.
Status accept_refusals(const std::vector<std::string>& reasons, bool force, StoreAddReport& report) {
  if (reasons.empty()) return ok_status();
  if (!force) return refused(reasons);
  for (const std::string& reason : reasons)
    if (std::find(report.forced.begin(), report.forced.end(), reason) == report.forced.end())
      report.forced.push_back(reason);
  return ok_status();
}

// The temporary name a new store is built under, ".NAME.tmp-PID" beside the target: linking
// it into place then never crosses a filesystem.
std::string temporary_prefix(const std::string& target) {
  std::string prefix(".");
  prefix += fs::path(target).filename().string();
  prefix += ".tmp-";
  return prefix;
}

std::string temporary_path(const std::string& target) {
  return (fs::path(target).parent_path() / (temporary_prefix(target) + std::to_string(::getpid()))).string();
}

// The side store a new store's games are made in first (merge_into), beside its temporary file.
constexpr const char* kSideSuffix = "-games";

// A killed add of a new store leaves its temporary file behind (and SQLite's side files of it);
// the next add of the same store removes those whose process is gone.
void remove_stale_temporaries(const std::string& target) {
  const fs::path parent = fs::path(target).parent_path();
  const fs::path dir = parent.empty() ? fs::path(".") : parent;
  const std::string prefix = temporary_prefix(target);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    std::string side = rest.substr(digits);
    if (side.rfind(kSideSuffix, 0) == 0)
      side.erase(0, std::string_view(kSideSuffix).size());  // the games' side store
    const bool sqlite_side = std::find(std::begin(kSideFileSuffixes), std::end(kSideFileSuffixes), side) !=
                             std::end(kSideFileSuffixes);
    if (digits == 0 || !(side.empty() || sqlite_side)) continue;
    const pid_t pid = pid_t(std::stol(rest.substr(0, digits)));
    if (::kill(pid, 0) != 0 && errno == ESRCH) fs::remove(entry.path(), ec);
  }
}

// A store's file and SQLite's side files of it, which a failed write (a full disk) can leave.
void remove_store_files(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
  for (const char* suffix : kSideFileSuffixes) fs::remove(path + suffix, ec);
}

Status sync_path(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return Error{path + ": cannot sync: " + std::strerror(err)};
  return ok_status();
}

// Makes a finished temporary store visible under its final name, refusing to replace a store
// that appeared meanwhile (link fails if the name exists; rename would silently replace it).
// Side files a deleted store left under that name go first, named in the report.
Status publish(const std::string& temp, const std::string& target, StoreAddReport& report) {
  if (Status s = sync_path(temp, O_RDONLY); !s) return s;
  Result<std::vector<std::string>> orphans = remove_orphan_side_files(target);
  if (!orphans) return orphans.error();
  report.removed_side_files = std::move(*orphans);
  if (::link(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    if (err == EEXIST)
      return Error{target + ": a store appeared under this name while adding; nothing was added"};
    return Error{target + ": cannot create: " + std::strerror(err)};
  }
  ::unlink(temp.c_str());
  std::string dir = fs::path(target).parent_path().string();
  return sync_path(dir.empty() ? "." : dir, O_RDONLY | O_DIRECTORY);
}

// The games an add records: the references made while reading, the positions' ply limit, and
// how many of the games are new to the store (their records must all go in).
struct GamesToAdd {
  int plies = 0;
  GameReferences* references = nullptr;
  uint64_t new_games = 0;
  std::string side_path;  // a new store's games are made here first (see merge_into)
};

// The plies whose positions keep their games: the store's, which a different --game-plies may
// not change (its lists would mix two depths).
Result<int> game_plies_for(Store* store, int given) {
  std::optional<int> recorded;
  if (store) {
    Result<std::optional<int>> r = store->game_plies();
    if (!r) return r.error();
    recorded = *r;
  }
  if (recorded && given > 0 && given != *recorded)
    return Error{store->path() + ": keeps the games of positions up to ply " + std::to_string(*recorded) +
                 "; --game-plies " + std::to_string(given) + " cannot change that (nothing was added)"};
  return recorded ? *recorded : given > 0 ? given : kDefaultGamePlies;
}

// Game records with their sources as read (input indexes) turned into the sources' ids.
class SourcedRecords final : public GameRecordStream {
 public:
  SourcedRecords(GameRecordStream& records, const std::vector<int64_t>& source_ids)
      : records_(records), source_ids_(source_ids) {}
  bool next(GameRecord& record) override {
    if (!records_.next(record)) return false;
    record.source = source_ids_[size_t(record.source)];
    return true;
  }
  Status status() const override { return records_.status(); }

 private:
  GameRecordStream& records_;
  const std::vector<int64_t>& source_ids_;
};

// Step 3 on an open store: settings, rows, sources and games in the current transaction.
Status merge_into(Store& store, counts::EntryStream& entries, const std::vector<SourceRecord>& sources,
                  GamesToAdd& games, const CountingSettings& settings, const StoreAddOptions& options,
                  StoreAddReport& report) {
  Result<std::optional<CountingSettings>> recorded = store.settings();
  if (!recorded) return recorded.error();
  if (!*recorded)
    if (Status s = store.set_settings(settings); !s) return s;
  std::vector<int64_t> source_ids;
  for (const SourceRecord& source : sources) {
    if (Status s = store.add_source(source); !s) return s;
    Result<int64_t> id = store.newest_source_id();
    if (!id) return id.error();
    source_ids.push_back(*id);
  }
  // Every game new to this add must go in: one whose fingerprint is there already was
  // committed by another add after this one loaded the fingerprints, and would be counted twice.
  auto add_games_to = [&](Store& target) -> Status {
    const std::unique_ptr<GameRecordStream> records = games.references->records();
    SourcedRecords sourced(*records, source_ids);
    Result<uint64_t> recorded_games = target.add_games(sourced);
    if (!recorded_games) return recorded_games.error();
    if (*recorded_games != games.new_games)
      return Error{store.path() +
                   ": another db add added some of the same games meanwhile; nothing was added "
                   "(run this add again)"};
    Result<std::unique_ptr<PositionGameStream>> positions = games.references->positions();
    if (!positions) return positions.error();
    return target.add_position_games(**positions);
  };
  // A new store's games go into a side store on another thread while this one merges the tree
  // (SQLite keeps one core busy then), and are copied in afterwards.
  Status side = ok_status();
  std::thread side_thread;
  if (!games.side_path.empty())
    side_thread = std::thread([&] {
      Result<Store> made = Store::create(games.side_path);
      if (!made) {
        side = made.error();
        return;
      }
      side = made->begin();
      if (side) side = add_games_to(*made);
      if (side) side = made->commit();
      if (side) side = made->close();
    });
  counts::PrefetchStream prefetched(entries);
  Result<MergeCounts> merged = store.merge(prefetched, options.on_merge_row);
  if (side_thread.joinable()) side_thread.join();
  if (!merged) return merged.error();
  report.rows_merged = merged->entries;
  if (!side) return side;
  if (games.side_path.empty())
    if (Status s = add_games_to(store); !s) return s;
  return store.set_game_plies(games.plies);
}

// The game references' share of --memory: an eighth, between these (they hold about 100 bytes
// a game and spill past their share: more than the most would only save a few sorted runs, less
// than the least would spill every few games).
constexpr uint64_t kMaxReferencesMemory = uint64_t(512) << 20;
constexpr uint64_t kMinReferencesMemoryPerWorker = uint64_t(1) << 20;

}  // namespace

Result<StoreAddReport> store_add(const StoreAddOptions& options) {
  StoreAddReport report;
  const auto start = Clock::now();
  const CountingSettings settings{options.pipeline.filter.describe(), options.pipeline.max_ply,
                                  options.tally.count_repeats};

  // Step 1. Open what exists and refuse duplicates and mismatched settings.
  std::error_code ec;
  report.created = !fs::exists(options.db_path, ec);
  std::optional<Store> existing;
  if (report.created) {
    // Fail before the long read, not after it.
    const fs::path parent = fs::path(options.db_path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (!fs::is_directory(dir, ec)) return Error{options.db_path + ": no such folder: " + dir};
    if (::access(dir.c_str(), W_OK) != 0) return Error{options.db_path + ": cannot write in " + dir};
  } else {
    Result<Store> opened = Store::open(options.db_path, true);
    if (!opened) return opened.error();
    existing.emplace(std::move(*opened));
    // Adding to a damaged store would only bury the damage under new rows.
    if (Status s = existing->check_integrity(); !s) return s.error();
  }
  Result<std::vector<Input>> inputs = digest_inputs(options.pipeline.inputs);
  if (!inputs) return inputs.error();
  Result<std::vector<std::string>> reasons = refusals(existing ? &*existing : nullptr, *inputs, settings);
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
  const uint64_t references_memory =
      std::max(std::min(tally_options.memory_budget / 8, kMaxReferencesMemory),
               kMinReferencesMemoryPerWorker * uint64_t(tally_options.workers));
  tally_options.memory_budget -= std::min(references_memory, tally_options.memory_budget / 2);
  tally_options.starting_table_memory =
      std::min(tally_options.starting_table_memory, tally_options.memory_budget);
  Result<std::unique_ptr<counts::Tally>> made = counts::Tally::create(tally_options);
  if (!made) return made.error();
  counts::Tally& tally = **made;
  GameReferences references(games.plies, references_memory, tally_options.workers, tally_options.tmp_dir);
  games.references = &references;
  std::vector<SourceRecord> sources;
  for (Input& in : *inputs) {
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
    Result<std::vector<std::string>> again = refusals(nullptr, *inputs, settings);
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
  if (existing) {
    if (Status s = existing->begin(); !s) return s.error();
    // Another add may have committed the same file between step 1 and the write lock.
    Result<std::vector<std::string>> again = refusals(&*existing, *inputs, settings);
    if (!again) {
      existing->rollback();
      return again.error();
    }
    if (Status s = accept_refusals(*again, options.force, report); !s) {
      existing->rollback();
      return s.error();
    }
    Status s = merge_into(*existing, **entries, sources, games, settings, options, report);
    if (s) s = existing->commit();
    if (!s) {
      existing->rollback();
      return s.error();
    }
    if (Status c = existing->close(); !c) return c.error();
  } else {
    const std::string temp = temporary_path(options.db_path);
    // An interrupted first add removes its half-made store and SQLite's side files of it.
    const TempNameRegistration registered[] = {
        TempNameRegistration(temp), TempNameRegistration(temp + "-journal"),
        TempNameRegistration(temp + "-wal"), TempNameRegistration(temp + "-shm")};
    remove_stale_temporaries(options.db_path);
    remove_store_files(temp);
    games.side_path = temp + kSideSuffix;
    const TempNameRegistration side_registered[] = {TempNameRegistration(games.side_path),
                                                    TempNameRegistration(games.side_path + "-wal"),
                                                    TempNameRegistration(games.side_path + "-shm")};
    remove_store_files(games.side_path);
    Result<Store> created = Store::create(temp);
    if (!created) return created.error();
    Status s = created->begin();
    if (s) s = merge_into(*created, **entries, sources, games, settings, options, report);
    if (s) s = created->commit();
    if (s) s = created->copy_games_from(games.side_path);
    remove_store_files(games.side_path);
    if (s) s = created->close();
    if (s) s = publish(temp, options.db_path, report);
    if (!s) {
      remove_store_files(temp);
      return s.error();
    }
  }
  report.merge_seconds = seconds_since(merge_start);
  report.sources = std::move(sources);
  return report;
}

}  // namespace bookforge::store
