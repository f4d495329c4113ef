#include "store/add_write.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include "base/temp_file.h"
#include "counts/prefetch_stream.h"

namespace bookforge::store {
namespace {

namespace fs = std::filesystem;

std::string describe_source(const SourceRecord& s) {
  return "added " + s.added + " as " + s.name + ", " + std::to_string(s.games) + " games";
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
Status merge_into(Store& store, AddWrite& write, const std::string& side_path, StoreAddReport& report) {
  const std::vector<SourceRecord>& sources = write.sources;
  GamesToAdd& games = write.games;
  Result<std::optional<CountingSettings>> recorded = store.settings();
  if (!recorded) return recorded.error();
  if (!*recorded)
    if (Status s = store.set_settings(write.settings); !s) return s;
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
    Result<std::unique_ptr<GameRecordStream>> records = games.records();
    if (!records) return records.error();
    SourcedRecords sourced(**records, source_ids);
    Result<uint64_t> recorded_games = target.add_games(sourced);
    if (!recorded_games) return recorded_games.error();
    if (*recorded_games != games.new_games)
      return Error{store.path() +
                   ": another db add added some of the same games meanwhile; nothing was added "
                   "(run this add again)"};
    Result<std::unique_ptr<PositionGameStream>> positions = games.positions();
    if (!positions) return positions.error();
    return target.add_position_games(**positions);
  };
  // A new store's games go into a side store on another thread while this one merges the tree
  // (SQLite keeps one core busy then), and are copied in afterwards.
  Status side = ok_status();
  std::thread side_thread;
  if (!side_path.empty())
    side_thread = std::thread([&] {
      Result<Store> made = Store::create(side_path);
      if (!made) {
        side = made.error();
        return;
      }
      side = made->begin();
      if (side) side = add_games_to(*made);
      if (side) side = made->commit();
      if (side) side = made->close();
    });
  counts::PrefetchStream prefetched(*write.entries);
  Result<MergeCounts> merged = store.merge(prefetched, write.on_merge_row);
  if (side_thread.joinable()) side_thread.join();
  if (!merged) return merged.error();
  report.rows_merged = merged->entries;
  if (!side) return side;
  if (side_path.empty())
    if (Status s = add_games_to(store); !s) return s;
  return store.set_game_plies(games.plies);
}

}  // namespace

Result<std::optional<Store>> open_store_to_add(const std::string& db_path) {
  std::error_code ec;
  if (!fs::exists(db_path, ec)) {
    // Fail before the long read, not after it.
    const fs::path parent = fs::path(db_path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (!fs::is_directory(dir, ec)) return Error{db_path + ": no such folder: " + dir};
    if (::access(dir.c_str(), W_OK) != 0) return Error{db_path + ": cannot write in " + dir};
    return std::optional<Store>();
  }
  Result<Store> opened = Store::open(db_path, true);
  if (!opened) return opened.error();
  // Adding to a damaged store would only bury the damage under new rows.
  if (Status s = opened->check_integrity(); !s) return s.error();
  return std::optional<Store>(std::move(*opened));
}

std::vector<std::string> AddedInput::hashes() const {
  std::vector<std::string> out;
  if (digest) out.push_back(digest->hex());
  if (content && (!digest || content->hash != digest->hash)) out.push_back(content->hex());
  return out;
}

Result<std::vector<std::string>> add_refusals(Store* store, const std::vector<AddedInput>& inputs,
                                              const CountingSettings& settings) {
  std::vector<std::string> reasons;
  std::map<std::string, const AddedInput*> seen;
  for (const AddedInput& in : inputs) {
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

Status accept_refusals(const std::vector<std::string>& reasons, bool force, StoreAddReport& report) {
  if (reasons.empty()) return ok_status();
  if (!force) return refused(reasons);
  for (const std::string& reason : reasons)
    if (std::find(report.forced.begin(), report.forced.end(), reason) == report.forced.end())
      report.forced.push_back(reason);
  return ok_status();
}

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

Status write_add(AddWrite& write, StoreAddReport& report) {
  std::optional<Store>& existing = *write.existing;
  if (existing) {
    if (Status s = existing->begin(); !s) return s;
    // Another add may have committed the same file between step 1 and the write lock.
    Result<std::vector<std::string>> again = std::vector<std::string>{};
    if (write.refusals_again) again = write.refusals_again(*existing);
    if (!again) {
      existing->rollback();
      return again.error();
    }
    if (Status s = accept_refusals(*again, write.force, report); !s) {
      existing->rollback();
      return s;
    }
    Status s = merge_into(*existing, write, "", report);
    if (s) s = existing->commit();
    if (!s) {
      existing->rollback();
      return s;
    }
    if (Status c = existing->close(); !c) return c;
  } else {
    const std::string temp = temporary_path(write.db_path);
    // An interrupted first add removes its half-made store and SQLite's side files of it.
    const TempNameRegistration registered[] = {
        TempNameRegistration(temp), TempNameRegistration(temp + "-journal"),
        TempNameRegistration(temp + "-wal"), TempNameRegistration(temp + "-shm")};
    remove_stale_temporaries(write.db_path);
    remove_store_files(temp);
    const std::string side_path = temp + kSideSuffix;
    const TempNameRegistration side_registered[] = {TempNameRegistration(side_path),
                                                    TempNameRegistration(side_path + "-wal"),
                                                    TempNameRegistration(side_path + "-shm")};
    remove_store_files(side_path);
    Result<Store> created = Store::create(temp);
    if (!created) return created.error();
    Status s = created->begin();
    if (s) s = merge_into(*created, write, side_path, report);
    if (s) s = created->commit();
    if (s) s = created->copy_games_from(side_path);
    remove_store_files(side_path);
    if (s) s = created->close();
    if (s) s = publish(temp, write.db_path, report);
    if (!s) {
      remove_store_files(temp);
      return s;
    }
  }
  return ok_status();
}

}  // namespace bookforge::store
