#include "store/add_from_counts.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <queue>

#include "counts/counts_set.h"
#include "counts/entry_merge.h"
#include "store/add_write.h"
#include "store/game_references.h"
#include "store/row.h"
#include "store/set_games.h"

namespace bookforge::store {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One source record of the add: an input of one or more sets (by content), with its parts.
struct SourceOfSets {
  SourceRecord record;
  FileDigest content;
  std::vector<counts::InputPart> parts;
};

// What the sets hold, as db add would have read it.
struct SetsToAdd {
  std::vector<counts::CountsSet> sets;
  std::vector<SetGames> games;
  counts::CountsHeader total;
  std::vector<SourceOfSets> sources;
  std::vector<std::vector<size_t>> source_of;  // [set][input]: its index in `sources`
};

// Every part of an input counted in parts, else an error naming the first one missing.
Status check_parts_whole(const SourceOfSets& source) {
  const uint32_t n = source.parts.front().count;
  for (const counts::InputPart& part : source.parts)
    if (part.count != n)
      return Error{source.record.name + ": counted in parts of different splits (" +
                   source.parts.front().describe() + " and " + part.describe() +
                   "): a store needs the parts of one split, every one of them"};
  std::vector<bool> seen(n);
  for (const counts::InputPart& part : source.parts) seen[part.index] = true;
  for (uint32_t i = 0; i < n; ++i)
    if (!seen[i])
      return Error{source.record.name + ": part " + counts::InputPart{i, n}.describe() +
                   " is missing: a store of an input counted in parts needs every part's set"};
  return ok_status();
}

// The sources in the order their inputs first appear, each input's parts together.
Status collect_sources(SetsToAdd& add, const CountingSettings& settings) {
  std::map<std::pair<uint64_t, uint64_t>, size_t> by_content;
  for (size_t s = 0; s < add.sets.size(); ++s) {
    const counts::CountsHeader& h = add.sets[s].header;
    const SetGamesHeader& g = add.games[s].header;
    if (g.inputs.size() != h.inputs.size())
      return Error{add.sets[s].dir + ": its " + kSetPositionsFile + " lists " +
                   std::to_string(g.inputs.size()) + " inputs, its counts " +
                   std::to_string(h.inputs.size())};
    add.source_of.emplace_back();
    for (size_t i = 0; i < h.inputs.size(); ++i) {
      const counts::CountedInput& in = h.inputs[i];
      auto [it, fresh] = by_content.emplace(std::pair{in.size, in.hash}, add.sources.size());
      if (fresh) {
        SourceOfSets source;
        source.record.name = in.name;
        source.record.size = g.inputs[i].file_size;
        source.content = FileDigest{in.size, in.hash};
        source.record.hash = source.content.hex();
        source.record.settings = settings;
        add.sources.push_back(std::move(source));
      }
      SourceOfSets& source = add.sources[it->second];
      source.parts.push_back(in.part);
      source.record.games += g.inputs[i].games;
      add.source_of.back().push_back(it->second);
    }
  }
  for (const SourceOfSets& source : add.sources)
    if (Status s = check_parts_whole(source); !s) return s;
  return ok_status();
}

// Every set's records merged: by fingerprint as stored, then (source, number); of each game the
// first, its source the add's. A game left out of a set with --skip-games was counted in another
// set, from another copy: the first copy must not be the one left out, or the game would be
// counted under another source than db add counts it (an error, naming the set).
class RecordsOfSets final : public GameRecordStream {
 public:
  RecordsOfSets(std::vector<std::unique_ptr<SetRecordsReader>> sets, const SetsToAdd& add)
      : sets_(std::move(sets)), add_(add) {
    for (size_t s = 0; s < sets_.size(); ++s) refill(s);
  }
  bool next(GameRecord& r) override {
    while (!heap_.empty() && error_.empty()) {
      Head head = heap_.top();
      heap_.pop();
      refill(head.set);
      if (any_ && head.record.fingerprint == last_) continue;  // a later copy
      any_ = true;
      last_ = head.record.fingerprint;
      if (head.skipped) {
        error_ =
            add_.sets[head.set].dir + " left out with --skip-games the first copy of a game (game " +
            std::to_string(head.record.number) + " of " +
            add_.sources[size_t(head.record.source)].record.name +
            "), which a later copy counts elsewhere: db add would count it there. Give the sets to count "
            "--find-duplicates and to db add in the order of their inputs, each input's parts in order "
            "(one input per set when they are counted in parts)";
        return false;
      }
      r = std::move(head.record);
      return true;
    }
    return false;
  }
  Status status() const override {
    if (!error_.empty()) return Error{error_};
    for (const auto& set : sets_)
      if (Status s = set->status(); !s) return s;
    return ok_status();
  }

 private:
  struct Head {
    GameRecord record;
    size_t set;
    bool skipped;
  };
  struct After {
    bool operator()(const Head& a, const Head& b) const {
      const auto key = [](const Head& h) {
        return std::tuple{int64_t(h.record.fingerprint), h.record.source, h.record.number};
      };
      return key(a) > key(b);
    }
  };
  void refill(size_t s) {
    Head head{GameRecord(), s, false};
    if (!sets_[s]->next(head.record)) return;
    head.skipped = sets_[s]->skipped();
    head.record.source = int64_t(add_.source_of[s][size_t(head.record.source)]);
    heap_.push(std::move(head));
  }

  std::vector<std::unique_ptr<SetRecordsReader>> sets_;
  const SetsToAdd& add_;
  std::priority_queue<Head, std::vector<Head>, After> heap_;
  bool any_ = false;
  uint64_t last_ = 0;
  std::string error_;
};

Result<std::unique_ptr<GameRecordStream>> records_of_sets(const SetsToAdd& add) {
  std::vector<std::unique_ptr<SetRecordsReader>> streams;
  for (const SetGames& set : add.games) {
    Result<std::unique_ptr<SetRecordsReader>> stream = read_set_records(set);
    if (!stream) return stream.error();
    streams.push_back(std::move(*stream));
  }
  return std::unique_ptr<GameRecordStream>(std::make_unique<RecordsOfSets>(std::move(streams), add));
}

// Games left out with --skip-games: each counted where db add counts it (see RecordsOfSets),
// checked before anything is written.
Status check_skipped_games(const SetsToAdd& add) {
  if (add.total.games_skipped == 0) return ok_status();
  Result<std::unique_ptr<GameRecordStream>> records = records_of_sets(add);
  if (!records) return records.error();
  GameRecord r;
  while ((*records)->next(r)) {
  }
  return (*records)->status();
}

// Every set's position games merged by (key, fingerprint) as stored, each position's lists
// reduced once more.
class PositionsOfSets final : public PositionGameStream {
 public:
  explicit PositionsOfSets(std::vector<std::unique_ptr<PositionGameStream>> sets) : sets_(std::move(sets)) {
    for (size_t s = 0; s < sets_.size(); ++s) refill(s);
  }
  bool next(PositionGame& g) override {
    if (at_ == group_.size()) {
      group_.clear();
      at_ = 0;
      if (heap_.empty()) return false;
      const uint64_t key = heap_.top().game.key;
      while (!heap_.empty() && heap_.top().game.key == key) {
        const Head head = heap_.top();
        heap_.pop();
        group_.push_back(head.game);
        refill(head.set);
      }
      keep_top_and_recent(group_);
    }
    g = group_[at_++];
    return true;
  }
  Status status() const override {
    for (const auto& set : sets_)
      if (Status s = set->status(); !s) return s;
    return ok_status();
  }

 private:
  struct Head {
    PositionGame game;
    size_t set;
  };
  struct After {
    bool operator()(const Head& a, const Head& b) const {
      return std::pair{key_to_db(a.game.key), int64_t(a.game.fingerprint)} >
             std::pair{key_to_db(b.game.key), int64_t(b.game.fingerprint)};
    }
  };
  void refill(size_t s) {
    Head head{PositionGame(), s};
    if (sets_[s]->next(head.game)) heap_.push(head);
  }

  std::vector<std::unique_ptr<PositionGameStream>> sets_;
  std::priority_queue<Head, std::vector<Head>, After> heap_;
  std::vector<PositionGame> group_;
  size_t at_ = 0;
};

// Step 1: the sets opened and checked, as far as they can be without the store.
Result<SetsToAdd> open_sets(const StoreFromCountsOptions& options) {
  Result<std::vector<counts::CountsSet>> sets = counts::open_sets_to_add(options.sets);
  if (!sets) return sets.error();
  SetsToAdd add;
  add.sets = std::move(*sets);
  add.total = counts::combined_header(add.sets);
  for (const counts::CountsSet& set : add.sets) {
    const counts::CountsOptions& o = set.header.options;
    if (!o.slices || !o.opponent_ratings || !o.ratings)
      return Error{set.dir + ": counted for a book: a store needs `count --for store`"};
    Result<SetGames> games = open_set_games(set.dir, set.id);
    if (!games) return games.error();
    if (!add.games.empty() && games->header.game_plies != add.games.front().header.game_plies)
      return Error{"sets counted with different --game-plies cannot be added up: " +
                   std::to_string(add.games.front().header.game_plies) + " in " + add.sets.front().dir +
                   ", " + std::to_string(games->header.game_plies) + " in " + set.dir};
    add.games.push_back(std::move(*games));
  }
  const counts::CountsOptions& counted = add.total.options;
  const int plies = add.games.front().header.game_plies;
  const std::string cannot = add.sets.front().dir + " was counted with ";
  if (options.game_plies > 0 && options.game_plies != plies)
    return Error{cannot + "--game-plies " + std::to_string(plies) + "; --game-plies " +
                 std::to_string(options.game_plies) +
                 " needs counting again (leave it out to use the sets')"};
  if (options.keep_duplicates && *options.keep_duplicates != counted.keep_duplicates)
    return Error{cannot + "duplicates " + (counted.keep_duplicates ? "kept" : "dropped") + "; " +
                 (*options.keep_duplicates ? "--keep-duplicates needs counting again with --keep-duplicates"
                                           : "dropping them needs counting again without --keep-duplicates")};
  return add;
}

// The games of the sets the store holds already: db add would count them once, but their counts
// are in the sets' rows. An error unless every copy is counted.
Status check_games_not_in_store(Store& store, const counts::GameList& all, bool keep_duplicates,
                                uint64_t& new_games) {
  std::vector<uint64_t> held;
  if (Status s = store.for_each_game_fingerprint([&](uint64_t f) { held.push_back(f); }); !s) return s;
  std::sort(held.begin(), held.end());
  uint64_t in_store = 0;
  for (uint64_t f : all.fingerprints) in_store += std::binary_search(held.begin(), held.end(), f);
  new_games = all.fingerprints.size() - in_store;
  if (in_store == 0 || keep_duplicates) return ok_status();
  return Error{store.path() + " holds " + std::to_string(in_store) +
               " of the sets' games already: db add would count them once, but the sets count them (their "
               "counts cannot be taken out of the sets' rows); count those inputs again with --skip-games, "
               "or add their PGN with db add"};
}

}  // namespace

Result<StoreAddReport> store_add_from_counts(const StoreFromCountsOptions& options) {
  StoreAddReport report;
  const auto start = Clock::now();

  // Step 1. The store, the sets, the sources; every refusal before anything is written.
  Result<std::optional<Store>> opened = open_store_to_add(options.db_path);
  if (!opened) return opened.error();
  std::optional<Store>& existing = *opened;
  report.created = !existing;
  Result<SetsToAdd> add = open_sets(options);
  if (!add) return add.error();
  const counts::CountsOptions& counted = add->total.options;
  const CountingSettings settings{counted.filters, counted.max_ply, counted.count_repeats};
  if (Status s = collect_sources(*add, settings); !s) return s.error();
  if (Status s = check_skipped_games(*add); !s) return s.error();
  std::vector<AddedInput> inputs;
  for (const SourceOfSets& source : add->sources)
    inputs.push_back({source.record.name, std::nullopt, source.content});
  Result<std::vector<std::string>> reasons = add_refusals(existing ? &*existing : nullptr, inputs, settings);
  if (!reasons) return reasons.error();
  if (!reasons->empty() && !options.force) return refused(*reasons);
  report.forced = *reasons;
  Result<int> plies = game_plies_for(existing ? &*existing : nullptr, add->games.front().header.game_plies);
  if (!plies) return plies.error();
  Result<counts::SharedGames> games_of_sets = counts::shared_games(add->sets);
  if (!games_of_sets) return games_of_sets.error();
  uint64_t new_games = games_of_sets->all.fingerprints.size();
  if (existing)
    if (Status s =
            check_games_not_in_store(*existing, games_of_sets->all, counted.keep_duplicates, new_games);
        !s)
      return s.error();

  // Step 2. What db add's read would have made: the summed rows, the records and the lists.
  std::vector<std::unique_ptr<counts::EntryStream>> groups =
      counts::summed_groups(add->sets, counts::finest_common_partitions(add->sets));
  counts::ConcatStream entries(std::move(groups));
  AddWrite write;
  write.db_path = options.db_path;
  write.existing = &existing;
  write.entries = &entries;
  for (const SourceOfSets& source : add->sources) write.sources.push_back(source.record);
  write.settings = settings;
  write.force = options.force;
  write.refusals_again = [&](Store& store) { return add_refusals(&store, inputs, settings); };
  write.on_merge_row = options.on_merge_row;
  write.games.plies = *plies;
  write.games.new_games = new_games;
  write.games.records = [&] { return records_of_sets(*add); };
  write.games.positions = [&]() -> Result<std::unique_ptr<PositionGameStream>> {
    std::vector<std::unique_ptr<PositionGameStream>> streams;
    for (const SetGames& set : add->games) {
      Result<std::unique_ptr<PositionGameStream>> stream = read_set_positions(set);
      if (!stream) return stream.error();
      streams.push_back(std::move(*stream));
    }
    return std::unique_ptr<PositionGameStream>(std::make_unique<PositionsOfSets>(std::move(streams)));
  };
  report.read.games = add->total.games_read;
  report.read.accepted = add->total.games_kept + add->total.duplicates_dropped + add->total.games_skipped;
  report.read.bad = add->total.games_bad;
  report.duplicates = add->total.duplicates_dropped + add->total.games_skipped;
  report.read_seconds = seconds_since(start);

  // Step 3. Written as db add writes.
  const auto merge_start = Clock::now();
  if (Status s = write_add(write, report); !s) return s.error();
  report.merge_seconds = seconds_since(merge_start);
  report.sources = std::move(write.sources);
  return report;
}

}  // namespace bookforge::store
