#include "counts/counts_set.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>

#include "counts/entry_merge.h"

namespace bookforge::counts {
namespace {

namespace fs = std::filesystem;

constexpr size_t kPairsNamed = 4;  // set pairs named in the message about shared games

std::string path_in(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

}  // namespace

std::string range_file_name(uint32_t range, uint32_t partitions) {
  char name[64];
  std::snprintf(name, sizeof name, "range-%04u-of-%04u.counts", range, partitions);
  return name;
}

Status check_partitions(uint32_t partitions) {
  if (partitions < 1 || partitions > kMaxCountsPartitions || (partitions & (partitions - 1)) != 0)
    return Error{"--partitions " + std::to_string(partitions) + ": a power of two from 1 to " +
                 std::to_string(kMaxCountsPartitions) +
                 " is needed (key ranges line up across sets only so)"};
  return ok_status();
}

Status prepare_set_folder(const std::string& dir) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (!fs::exists(status)) {
    if (!fs::create_directory(dir, ec)) return Error{dir + ": cannot make the folder: " + ec.message()};
    return ok_status();
  }
  if (!fs::is_directory(status)) return Error{dir + " is not a folder"};
  if (fs::directory_iterator(dir, ec) != fs::directory_iterator())
    return Error{dir + " is not empty: a set of counts is written into a new or empty folder"};
  if (ec) return Error{dir + ": " + ec.message()};
  return ok_status();
}

Status prepare_range_folder(const std::string& dir) {
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (!fs::is_directory(dir, ec))
    return Error{dir + ": cannot make the folder" + (ec ? ": " + ec.message() : "")};
  return ok_status();
}

Result<CountsSet> open_counts_set(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir + ": no such folder of counts"};
  CountsSet set;
  set.dir = dir;
  // The first range file found tells K; then every range must be there, of the same set.
  uint32_t partitions = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    unsigned r = 0, k = 0;
    if (std::sscanf(entry.path().filename().c_str(), "range-%u-of-%u.counts", &r, &k) == 2) {
      partitions = k;
      break;
    }
  }
  if (partitions == 0)
    return Error{dir +
                 ": no counts file (range-*.counts) in it: not a set of counts, or its count did not finish"};
  if (Status s = check_partitions(partitions); !s.ok()) return Error{dir + ": " + s.error().message};
  for (uint32_t r = 0; r < partitions; ++r) {
    const std::string path = path_in(dir, range_file_name(r, partitions));
    if (!fs::exists(path, ec))
      return Error{dir + ": range " + std::to_string(r) + " of " + std::to_string(partitions) +
                   " is missing (" + range_file_name(r, partitions) + "): the count did not finish"};
    Result<std::unique_ptr<CountsFileReader>> reader = CountsFileReader::open(path);
    if (!reader) return reader.error();
    const CountsHeader& h = (*reader)->header();
    if (h.partitions != partitions || h.range != r)
      return Error{path + ": holds range " + std::to_string(h.range) + " of " + std::to_string(h.partitions)};
    if (r == 0) {
      set.header = h;
      set.id = h.set_id();
    } else if (h.set_id() != set.id) {
      return Error{path + ": belongs to another set than " + range_file_name(0, partitions) +
                   " (a folder holds one count's files)"};
    }
    set.ranges.push_back(std::move(*reader));
  }
  if (!fs::exists(path_in(dir, kGameListFile), ec))
    return Error{dir + ": " + kGameListFile + " is missing: the count did not finish"};
  Result<GameList> games = read_game_list(path_in(dir, kGameListFile));
  if (!games) return Error{dir + ": " + games.error().message};
  if (games->set_id != set.id)
    return Error{dir + ": " + std::string(kGameListFile) + " belongs to another set"};
  return set;
}

Status check_sets_combine(const std::vector<CountsSet>& sets) {
  for (size_t s = 1; s < sets.size(); ++s)
    if (std::optional<std::string> d =
            first_difference(sets[0].header.options, sets[0].dir, sets[s].header.options, sets[s].dir))
      return Error{"sets counted with different options cannot be added up: " + *d};
  // Inputs by content: the same bytes under any name or compression are the same games.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<size_t, const CountedInput*>>> by_content;
  for (size_t s = 0; s < sets.size(); ++s)
    for (const CountedInput& in : sets[s].header.inputs) {
      auto& seen = by_content[{in.size, in.hash}];
      for (const auto& [other, earlier] : seen) {
        if (other == s || !earlier->part.overlaps(in.part)) continue;
        if (sets[other].id == sets[s].id)
          return Error{sets[other].dir + " and " + sets[s].dir +
                       " are the same set: it would be counted twice"};
        return Error{sets[other].dir + " and " + sets[s].dir + " both count " + in.name + " (" +
                     earlier->part.describe() + " and " + in.part.describe() +
                     " of the same content): it would be counted twice"};
      }
      seen.push_back({s, &in});
    }
  return ok_status();
}

Result<std::vector<CountsSet>> open_combinable_sets(const std::vector<std::string>& dirs) {
  std::vector<CountsSet> sets;
  for (const std::string& dir : dirs) {
    Result<CountsSet> set = open_counts_set(dir);
    if (!set) return set.error();
    sets.push_back(std::move(*set));
  }
  if (Status s = check_sets_combine(sets); !s.ok()) return s.error();
  return sets;
}

Result<std::vector<CountsSet>> open_sets_to_add(const std::vector<std::string>& dirs, SharedGames* games) {
  Result<std::vector<CountsSet>> opened = open_combinable_sets(dirs);
  if (!opened) return opened.error();
  std::vector<CountsSet>& sets = *opened;
  if (sets.empty()) return Error{"no set of counts given"};
  const bool keep_duplicates = sets.front().header.options.keep_duplicates;
  if (!games && (keep_duplicates || sets.size() == 1)) return opened;
  Result<SharedGames> shared = shared_games(sets);
  if (!shared) return shared.error();
  if (games) *games = std::move(*shared);
  if (!keep_duplicates && shared->games > 0)
    return Error{
        std::to_string(shared->games) +
        " game(s) are counted in more than one set, and would count twice where one machine counts "
        "them once (" +
        shared->which +
        "): count the later sets again with --skip-games (`bookforge count --find-duplicates SETS -o "
        "FOLDER` writes their lists), or count every set with --keep-duplicates"};
  return opened;
}

CountsHeader combined_header(const std::vector<CountsSet>& sets) {
  CountsHeader total = sets.front().header;
  total.inputs.clear();
  total.games_read = total.games_kept = total.games_bad = total.games_skipped = total.duplicates_dropped = 0;
  for (const CountsSet& set : sets) {
    const CountsHeader& h = set.header;
    total.inputs.insert(total.inputs.end(), h.inputs.begin(), h.inputs.end());
    total.games_read += h.games_read;
    total.games_kept += h.games_kept;
    total.games_bad += h.games_bad;
    total.games_skipped += h.games_skipped;
    total.duplicates_dropped += h.duplicates_dropped;
  }
  return total;
}

Result<SharedGames> shared_games(const std::vector<CountsSet>& sets) {
  // Every (fingerprint, set), sorted: a fingerprint in several sets comes as a run.
  std::vector<std::pair<uint64_t, uint32_t>> all;
  for (size_t s = 0; s < sets.size(); ++s) {
    Result<GameList> list = read_game_list(path_in(sets[s].dir, kGameListFile));
    if (!list) return Error{sets[s].dir + ": " + list.error().message};
    for (uint64_t f : list->fingerprints) all.push_back({f, uint32_t(s)});
  }
  std::sort(all.begin(), all.end());
  SharedGames shared;
  shared.skip.resize(sets.size());
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> pairs;
  for (size_t i = 0; i < all.size();) {
    size_t j = i + 1;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    shared.all.fingerprints.push_back(all[i].first);
    if (j - i > 1) {
      ++shared.games;
      for (size_t k = i + 1; k < j; ++k) {
        shared.skip[all[k].second].fingerprints.push_back(all[i].first);
        ++pairs[{all[i].second, all[k].second}];
      }
    }
    i = j;
  }
  size_t named = 0;
  for (const auto& [pair, games] : pairs) {
    if (named++ == kPairsNamed) {
      shared.which += ", ...";
      break;
    }
    shared.which += std::string(shared.which.empty() ? "" : ", ") + sets[pair.first].dir + " and " +
                    sets[pair.second].dir + " share " + std::to_string(games);
  }
  return shared;
}

uint32_t finest_common_partitions(const std::vector<CountsSet>& sets) {
  uint32_t k = kMaxCountsPartitions;
  for (const CountsSet& set : sets) k = std::min(k, set.header.partitions);
  return k;
}

std::vector<std::unique_ptr<EntryStream>> summed_groups(std::vector<CountsSet>& sets, uint32_t groups) {
  std::vector<std::unique_ptr<EntryStream>> out;
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<std::unique_ptr<EntryStream>> per_set;
    for (CountsSet& set : sets) {
      // The set's ranges within group g, one after another in key order.
      const uint32_t per_group = set.header.partitions / groups;
      std::vector<std::unique_ptr<EntryStream>> ranges;
      for (uint32_t r = g * per_group; r < (g + 1) * per_group; ++r)
        ranges.push_back(std::move(set.ranges[r]));
      per_set.push_back(std::make_unique<ConcatStream>(std::move(ranges)));
    }
    out.push_back(std::make_unique<MergedStream>(std::move(per_set)));
  }
  return out;
}

Result<uint64_t> write_ranges(const std::string& dir, CountsHeader header, EntryStream& entries,
                              uint32_t first, uint32_t end) {
  // A batch at a time: one virtual call and one reservation of the file's buffer per batch.
  std::vector<TallyEntry> batch(256);
  size_t position = 0, size = 0;
  auto fill = [&] {
    if (position == size) {
      position = 0;
      size = entries.next_batch(batch.data(), batch.size());
    }
    return position < size;
  };
  uint64_t bytes = 0;
  for (uint32_t r = first; r < end; ++r) {
    header.range = r;
    Result<CountsFileWriter> writer =
        CountsFileWriter::create(path_in(dir, range_file_name(r, header.partitions)), header);
    if (!writer) return writer.error();
    while (fill()) {
      size_t in_range = position;
      while (in_range < size && key_range(batch[in_range].key, header.partitions) == r) ++in_range;
      writer->add(batch.data() + position, batch.data() + in_range);
      position = in_range;
      if (position < size) break;  // the next range's first entry
    }
    if (Status s = entries.status(); !s.ok()) return s.error();
    Result<uint64_t> written = writer->commit();
    if (!written) return written.error();
    bytes += *written;
  }
  if (fill())
    return Error{"internal error: an entry of key " + std::to_string(batch[position].key) +
                 " outside ranges " + std::to_string(first) + " to " + std::to_string(end - 1)};
  return bytes;
}

Status finish_set(const std::string& dir, const CountsHeader& header, const GameList& games) {
  const uint64_t id = header.set_id();
  for (uint32_t r = 0; r < header.partitions; ++r) {
    const std::string name = range_file_name(r, header.partitions);
    Result<std::unique_ptr<CountsFileReader>> reader = CountsFileReader::open(path_in(dir, name));
    if (!reader)
      return Error{dir + ": range " + std::to_string(r) + " of " + std::to_string(header.partitions) +
                   " is not written (" + reader.error().message + "): run its --range task first"};
    if ((*reader)->header().set_id() != id)
      return Error{path_in(dir, name) + ": belongs to a merge of other sets or options"};
  }
  return write_game_list(path_in(dir, kGameListFile), GameList{id, games.fingerprints});
}

Result<uint64_t> write_set(const std::string& dir, const CountsHeader& header,
                           std::vector<std::unique_ptr<EntryStream>> groups, const GameList& games,
                           int threads, const std::function<Result<uint64_t>()>& more) {
  const uint32_t n = uint32_t(groups.size());
  const uint32_t per_group = header.partitions / n;
  std::vector<Result<uint64_t>> written(n, Error{"not written"});
  std::atomic<uint32_t> next{0};
  auto work = [&] {
    for (uint32_t g; (g = next++) < n;)
      written[g] = write_ranges(dir, header, *groups[g], g * per_group, (g + 1) * per_group);
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::min<int>(threads, int(n)); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
  uint64_t bytes = 0;
  for (const Result<uint64_t>& w : written) {
    if (!w) return w.error();
    bytes += *w;
  }
  if (more) {
    Result<uint64_t> more_bytes = more();
    if (!more_bytes) return more_bytes.error();
    bytes += *more_bytes;
  }
  // Last: a set with its game list is complete.
  GameList list{header.set_id(), games.fingerprints};
  if (Status s = write_game_list(path_in(dir, kGameListFile), list); !s.ok()) return s.error();
  return bytes;
}

}  // namespace bookforge::counts
