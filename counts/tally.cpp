#include "counts/tally.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <limits>
#include <mutex>
#include <span>
#include <thread>

#include "counts/entry_merge.h"
#include "counts/open_table.h"
#include "counts/repeat_filter.h"
#include "counts/run_file.h"
#include "counts/spill_file.h"

namespace bookforge::counts {
namespace {

// More runs than this are merged in several passes (each open run costs a descriptor and a
// read buffer).
constexpr size_t kMaxFanIn = 64;
// The wide table starts with a sixteenth of the partition's first budget, up to this many slots.
constexpr size_t kInitialWideSlots = 1 << 8;
// The tables start with TallyOptions::starting_table_memory and double it after every
// kSpillsPerStep spills, up to the budget. Counting into tables past the caches costs a miss a
// ply however large they are, and a spill is a sequential write, so a small input stays small
// in memory at no cost in time; a huge one soon gets large tables, which keeps its run count
// (and so the final merge's fan-in) bounded.
constexpr unsigned kSpillsPerStep = 4;
// A worker hands its plies to a partition a batch at a time (kBatch at most). If another worker
// is counting into that partition just then, it keeps collecting, and waits for the partition
// only once it holds kHeldPerBatch batches for it.
constexpr size_t kBatch = 4096;
constexpr size_t kHeldPerBatch = 16;
// The plies the workers hold for the partitions come out of the memory budget: a quarter of it,
// at most kMaxHeldMemory (which two workers fill holding kHeldPerBatch full batches for each
// of their four partitions).
constexpr uint64_t kMaxHeldMemory = uint64_t(8) << 20;
// Every worker holds plies for every partition, so the pairs are bounded: past kMaxPairs there
// are fewer partitions than two per worker (each pair's share of the held plies stays useful).
constexpr uint64_t kMaxPairs = 512;
// The least a partition's tables take (both at their smallest, with their slack), so the number
// of partitions never makes the tables outgrow a small budget.
constexpr uint64_t kMinPartitionMemory = uint64_t(8) << 10;
// Slots asked for ahead of the ply being counted, so that their cache misses overlap.
constexpr size_t kPrefetchAhead = 16;

// Reads `streams` through a merge into a new run appended to `file`.
Result<SpilledRun> write_run(std::vector<std::unique_ptr<EntryStream>> streams,
                             std::shared_ptr<SpillFile> file) {
  RunWriter writer(std::move(file));
  MergedStream merged(std::move(streams));
  TallyEntry e;
  while (merged.next(e)) writer.add(e);
  if (Status s = merged.status(); !s.ok()) return s.error();
  return writer.finish();
}

}  // namespace

// One ply on its way from the worker that replayed it to the partition that counts it.
struct Tally::Ply {
  uint64_t key;
  uint16_t move;
  GamePly game;
};
static_assert(sizeof(Tally::Ply) == 24, "a pending ply is 24 bytes");

// The tables, spilled runs and counts of one partition. Any worker may count into it while it
// holds lock().
class Tally::Partition {
 public:
  explicit Partition(uint64_t table_budget) : table_budget_(table_budget) {}
  virtual ~Partition() = default;
  virtual void count(std::span<const Ply> plies) = 0;
  // The tables (already sorted) for the final merge, and the runs.
  virtual void sorted_sources(std::vector<std::unique_ptr<EntryStream>>& tables,
                              std::vector<SpilledRun>& runs) = 0;
  std::mutex& lock() { return lock_; }
  const std::string& error() const { return error_; }
  uint64_t spills() const { return spills_; }
  uint64_t spill_bytes() const { return spill_bytes_; }
  // What the tables may take now (grows with spills up to the partition's share of the budget).
  uint64_t table_budget() const { return table_budget_; }

 protected:
  std::mutex lock_;
  uint64_t table_budget_;
  uint64_t spills_ = 0;
  uint64_t spill_bytes_ = 0;
  std::string error_;
};

namespace {

// A slot that keeps slices (the store's) is filed in its table under its key scrambled by its
// move and slice. The table is ordered by its keys, and every entry of a key has the same home:
// a position near the start of the games holds tens of thousands of (move, slice) entries, and
// under its own key they made one cluster that every lookup there, and of every key homed
// inside it, scanned from end to end (db add spent most of its counting time so). Scrambled,
// they spread over the table like distinct keys. The price: the table is no longer in (key,
// move, slice) order, so it is unscrambled and sorted when it is spilled or read at the end.
template <class Slot>
constexpr bool kScrambled = requires(Slot s) {
  s.slice;
};

// A bijection of the key for each (move, slice): the real key comes back with the same call.
inline uint64_t scramble(uint64_t key, uint16_t move, uint32_t slice) {
  uint64_t x = (uint64_t(move) << 32 | slice) + 0x9e3779b97f4a7c15ull;  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return key ^ x ^ (x >> 31);
}

// The used slots of a scrambled table's array moved to its front, their keys unscrambled, in
// (key, move, slice) order; the rest of the array left empty. The table must not be looked up
// until it is emptied. Returns the number of used slots.
template <class Slot>
size_t unscramble_and_sort(Slot* begin, Slot* end) {
  Slot* out = begin;
  for (Slot* s = begin; s != end; ++s) {
    if (s->move == 0) continue;
    s->key = scramble(s->key, s->move, s->slice);
    if (out != s) {
      *out = *s;
      std::memset(static_cast<void*>(s), 0, sizeof(Slot));
    }
    ++out;
  }
  std::sort(begin, out, tally_order);
  return size_t(out - begin);
}

template <class Compact>
class SlotPartition final : public Tally::Partition {
 public:
  // A partition with `budget` for its tables, `starting_budget` of it at first; an error if the
  // tables cannot be had.
  static Result<std::unique_ptr<Tally::Partition>> create(const TallyOptions& options, uint64_t budget,
                                                          uint64_t starting_budget, uint64_t partitions) {
    const uint64_t table_budget = std::min(budget, starting_budget);
    // Scrambled keys are spread over the whole key space, not over the partition's part of it:
    // their table places them as a table of one partition would.
    Result<OpenTable<Compact>> compact = OpenTable<Compact>::create(
        initial_slots(std::min(table_budget, kDefaultStartingTableMemory / partitions)),
        kScrambled<Compact> ? 1 : partitions, /*populate=*/false);
    if (!compact) return compact.error();
    Result<OpenTable<TallyEntry>> wide =
        OpenTable<TallyEntry>::create(initial_wide_slots(table_budget), partitions);
    if (!wide) return wide.error();
    return std::unique_ptr<Tally::Partition>(
        new SlotPartition(options, budget, table_budget, std::move(*compact), std::move(*wide)));
  }

  // The compact table starts with fifteen sixteenths of what the partition may take at first
  // (the rest is room for the wide table), up to the default start: Zobrist keys spread over
  // the whole table at once, and a table that starts small is rebuilt at every step of its
  // growth. A larger budget is reached by growing, as the input turns out to need it.
  static uint64_t initial_slots(uint64_t table_budget) {
    return std::max<uint64_t>(OpenTable<Compact>::capacity_within(table_budget / 16 * 15), 64);
  }
  static uint64_t initial_wide_slots(uint64_t table_budget) {
    return std::clamp<uint64_t>(table_budget / 16 / sizeof(TallyEntry), 16, kInitialWideSlots);
  }

  void count(std::span<const Tally::Ply> plies) override {
    if (!populated_) {
      // On the first worker that counts here, while the reader and the other workers go on
      // (the table was only mapped when the tally was made, on the thread that starts them).
      compact_.populate();
      populated_ = true;
    }
    const size_t n = plies.size();
    for (size_t i = 0; i < std::min(n, kPrefetchAhead); ++i) compact_.prefetch(table_key(plies[i]));
    for (size_t i = 0; i < n && error_.empty(); ++i) {
      if (i + kPrefetchAhead < n) compact_.prefetch(table_key(plies[i + kPrefetchAhead]));
      count_one(plies[i]);
    }
  }

  void sorted_sources(std::vector<std::unique_ptr<EntryStream>>& tables,
                      std::vector<SpilledRun>& runs) override {
    assert(compact_.is_ok() && wide_.is_ok());
    const std::span<Compact> slots = sorted_slots();
    tables.push_back(std::make_unique<SpanStream<Compact>>(slots.data(), slots.data() + slots.size()));
    tables.push_back(std::make_unique<SpanStream<TallyEntry>>(wide_.begin(), wide_.end()));
    for (SpilledRun& run : runs_) runs.push_back(std::move(run));
    runs_.clear();
  }

 private:
  SlotPartition(const TallyOptions& options, uint64_t budget, uint64_t table_budget,
                OpenTable<Compact> compact, OpenTable<TallyEntry> wide)
      : Partition(table_budget),
        options_(options),
        budget_(budget),
        compact_(std::move(compact)),
        wide_(std::move(wide)) {}

  // The compact table's slots in (key, move, slice) order: the whole array (empty slots in
  // between), or for a scrambled table its used slots, unscrambled and sorted to its front
  // (the table is then only fit to be read or drained).
  std::span<Compact> sorted_slots() {
    Compact* begin = compact_.drain_begin();
    Compact* end = compact_.drain_end();
    if constexpr (kScrambled<Compact>) end = begin + unscramble_and_sort(begin, end);
    return {begin, end};
  }

  // The key a ply is filed under in the compact table.
  static uint64_t table_key(const Tally::Ply& p) {
    if constexpr (kScrambled<Compact>)
      return scramble(p.key, p.move, p.game.slice);
    else
      return p.key;
  }

  void count_one(const Tally::Ply& p) {
    if (slot_takes<Compact>(p.game)) {
      Compact* s = slot_in(compact_, table_key(p), p.move, p.game.slice);
      if (!s) return;
      if (add_game(*s, p.game)) return;
    }
    // Counted from the ply again rather than from what slot_takes computed: kept for this
    // rare path, those values stayed live across the lookup and cost every ply a few spills.
    TallyEntry* e = slot_in(wide_, p.key, p.move, p.game.slice);
    if (!e) return;
    e->add(TallyEntry::of_game(p.game));
  }

  // The slot of (key, move) in `table`, making room first when the table is full: a larger
  // table if the budget allows at least a quarter more slots, a spill otherwise. nullptr only
  // after a spill failed (error_ says why).
  template <class Slot>
  Slot* slot_in(OpenTable<Slot>& table, uint64_t key, uint16_t move, uint32_t slice) {
    if (table.over_load()) make_room(table);
    for (;;) {
      if (!error_.empty()) return nullptr;
      if (Slot* s = table.find_or_insert(key, move, slice)) return s;
      make_room(table);
    }
  }

  template <class Slot>
  void make_room(OpenTable<Slot>& table) {
    // Tables grow in place: the new array may take everything the other table leaves.
    uint64_t others = compact_.bytes() + wide_.bytes() - table.bytes();
    uint64_t room = table_budget_ > others ? OpenTable<Slot>::capacity_within(table_budget_ - others) : 0;
    // Growing by half (not doubling) wastes less of the last step's memory.
    uint64_t wanted = std::min<uint64_t>(table.capacity() + table.capacity() / 2, room);
    if (wanted >= table.capacity() + table.capacity() / 4 && table.resize(wanted)) {
      assert(table.is_ok());
      return;
    }
    spill(/*wide_needs_room=*/static_cast<void*>(&table) == static_cast<void*>(&wide_));
  }

  // Spills the compact table, and the wide one when it needs the room or has grown to a
  // sixteenth of what the tables may take. A small wide table stays: written out at every
  // spill, it added two runs of a hundred entries to the final merge for every compact run.
  void spill(bool wide_needs_room) {
    if (!spill_file_) {
      auto file = SpillFile::create(options_.tmp_dir);
      if (!file) {
        error_ = file.error().message;
        return;
      }
      spill_file_ = std::move(*file);
    }
    // The compact table in order, the wide one (if it goes too) as a run of its own.
    const std::span<Compact> slots = sorted_slots();
    Result<SpilledRun> run = drain_slot_run(spill_file_, slots.data(), slots.data() + slots.size());
    compact_.emptied();
    Result<SpilledRun> wide_run = SpilledRun{};
    const bool spill_wide = wide_needs_room || wide_.bytes() * 16 >= table_budget_;
    if (run && spill_wide && wide_.size() > 0) {
      std::vector<std::unique_ptr<EntryStream>> wide;
      wide.push_back(std::make_unique<SpanStream<TallyEntry>>(wide_.begin(), wide_.end()));
      wide_run = write_run(std::move(wide), spill_file_);
    }
    if (spill_wide) wide_.clear();
    if (!run || !wide_run) {
      error_ = (!run ? run : wide_run).error().message;
      return;
    }
    if (wide_run->entries > 0) {
      spill_bytes_ += wide_run->bytes;
      runs_.push_back(std::move(*wide_run));
    }
    ++spills_;
    spill_bytes_ += run->bytes;
    runs_.push_back(std::move(*run));
    if (++spills_this_step_ == kSpillsPerStep && table_budget_ < budget_) {
      table_budget_ = std::min(budget_, table_budget_ * 2);
      spills_this_step_ = 0;
    }
  }

  const TallyOptions& options_;
  bool populated_ = false;
  uint64_t budget_;  // this partition's share of the budget: the tables never take more
  unsigned spills_this_step_ = 0;
  OpenTable<Compact> compact_;
  OpenTable<TallyEntry> wide_;
  std::shared_ptr<SpillFile> spill_file_;  // every run of this partition, one after another
  std::vector<SpilledRun> runs_;
};

}  // namespace

// A pipeline worker's sink: replays nothing itself, it sorts each game's countable plies by
// partition and hands them over a batch at a time.
class Tally::Worker final : public pgn::GameSink {
 public:
  explicit Worker(Tally& tally)
      : tally_(tally), held_(tally.partitions_.size()), next_try_(tally.partitions_.size(), tally.batch_) {
    for (std::vector<Ply>& h : held_) h.reserve(tally.batch_);
  }

  void on_game(const pgn::ReplayedGame& game) override {
    ++stats_.games;
    const uint8_t* repeated = tally_.options_.count_repeats ? nullptr : repeats_.mark(game.plies);
    const bool ratings = tally_.options_.ratings;
    const bool opponents = tally_.options_.opponent_ratings;
    const uint32_t slice = tally_.options_.slice_of ? tally_.options_.slice_of(game) : 0;
    const uint64_t partitions = held_.size();
    uint64_t counted = 0;
    for (size_t i = 0; i < game.plies.size(); ++i) {
      const pgn::PlyRecord& ply = game.plies[i];
      if (ply.move == 0) continue;  // a null move has no Polyglot encoding
      if (repeated && repeated[i]) {
        ++stats_.repeats_skipped;
        continue;
      }
      unsigned game_ply = std::min<unsigned>(unsigned(game.start_ply) + ply.ply, 0xfffe);
      const bool black = game_ply & 1;
      const uint16_t elo = !ratings ? 0 : black ? game.black_elo : game.white_elo;
      const uint16_t opponent_elo = !opponents ? 0 : black ? game.white_elo : game.black_elo;
      const size_t p = size_t((static_cast<unsigned __int128>(ply.key) * partitions) >> 64);
      std::vector<Ply>& held = held_[p];
      held.push_back({ply.key, ply.move, {game.outcome, uint16_t(game_ply), elo, opponent_elo, slice}});
      ++counted;
      if (held.size() >= next_try_[p]) deliver(p, held.size() >= kHeldPerBatch * tally_.batch_);
    }
    stats_.plies += counted;
  }

  void on_end() override { flush(); }

  // Counts everything still held (after the last game).
  void flush() {
    for (size_t p = 0; p < held_.size(); ++p)
      if (!held_[p].empty()) deliver(p, true);
  }

  const TallyStats& stats() const { return stats_; }

 private:
  // Counts the plies held for partition `p` unless another worker is counting there and `wait` is
  // false: they are then kept for a later try.
  void deliver(size_t p, bool wait) {
    Partition& partition = *tally_.partitions_[p];
    std::unique_lock lock(partition.lock(), std::defer_lock);
    if (wait) {
      lock.lock();
    } else if (!lock.try_lock()) {
      next_try_[p] += std::max<size_t>(tally_.batch_ / 4, 1);
      return;
    }
    partition.count(held_[p]);
    held_[p].clear();
    next_try_[p] = tally_.batch_;
  }

  Tally& tally_;
  std::vector<std::vector<Ply>> held_;  // per partition
  std::vector<size_t> next_try_;        // per partition: hand over once this many are held
  RepeatFilter repeats_;
  TallyStats stats_;
};

Tally::Tally(const TallyOptions& options) : options_(options) {
  // Step 1. The plies held on their way to the partitions take a quarter of the budget (up to
  // kMaxHeldMemory), the tables the rest.
  const uint64_t workers = uint64_t(std::max(options_.workers, 1));
  const uint64_t held_memory = std::min(options_.memory_budget / 4, kMaxHeldMemory);
  table_memory_ = options_.memory_budget - held_memory;
  const uint64_t table_memory = table_memory_;

  // Step 2. Two partitions per worker: the partitions' final merges and rules run one partition
  // per thread, and with twice as many as cores, one that happens to take longer leaves a core
  // idle for a shorter while at the end. A single worker gets two as well: once the input is
  // read, the reader's core is free, and the merges (and a count's encoding of its files) run
  // on both (count --threads 1 of the three pgnmentor files: 0.94x the time). Fewer when there
  // are more workers than kMaxPairs allows, or more partitions than the tables have room for.
  uint64_t n = 2 * workers;
  n = std::min({n, kMaxPairs / workers, table_memory / kMinPartitionMemory});
  n = std::max<uint64_t>(n, 1);

  // Step 3. Each (worker, partition) pair's share of the held plies: kHeldPerBatch batches.
  const uint64_t held_per_pair = held_memory / sizeof(Ply) / (workers * n);
  batch_ = size_t(std::clamp<uint64_t>(held_per_pair / kHeldPerBatch, 1, kBatch));

  partitions_.resize(n);
}

Result<std::unique_ptr<Tally>> Tally::create(const TallyOptions& options) {
  std::unique_ptr<Tally> tally(new Tally(options));
  const uint64_t n = tally->partitions_.size();
  const uint64_t table_memory = tally->table_memory_;
  const uint64_t starting = std::min(options.starting_table_memory, table_memory);
  for (std::unique_ptr<Partition>& partition : tally->partitions_) {
    // The narrowest slot that keeps what the options ask for.
    Result<std::unique_ptr<Partition>> made =
        options.slice_of || options.opponent_ratings
            ? SlotPartition<StoreSlot>::create(tally->options_, table_memory / n, starting / n, n)
        : options.ratings
            ? SlotPartition<CompactSlot>::create(tally->options_, table_memory / n, starting / n, n)
            : SlotPartition<SmallSlot>::create(tally->options_, table_memory / n, starting / n, n);
    if (!made) return made.error();
    partition = std::move(*made);
  }
  for (int i = 0; i < std::max(options.workers, 1); ++i)
    tally->workers_.push_back(std::make_unique<Worker>(*tally));
  return tally;
}

Tally::~Tally() = default;

pgn::GameSink& Tally::sink(int index) { return *workers_.at(size_t(index)); }

Result<std::vector<std::unique_ptr<EntryStream>>> Tally::finish_partitions() {
  for (const auto& w : workers_) w->flush();
  for (const auto& p : partitions_)
    if (!p->error().empty()) return Error{p->error()};
  // The partitions get ready for their merge on as many threads as there were workers: a
  // partition of the store's tally sorts its table here, and one with many runs merges some
  // of them first.
  std::vector<Result<std::unique_ptr<EntryStream>>> merged;
  for (size_t i = 0; i < partitions_.size(); ++i) merged.emplace_back(Error{"not prepared"});
  std::atomic<size_t> next{0};
  auto prepare = [&] {
    for (size_t i; (i = next++) < partitions_.size();) merged[i] = merge_partition(*partitions_[i]);
  };
  std::vector<std::thread> helpers;
  const size_t threads = std::min(partitions_.size(), size_t(finishing_threads()));
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(prepare);
  prepare();
  for (std::thread& h : helpers) h.join();
  std::vector<std::unique_ptr<EntryStream>> streams;
  for (Result<std::unique_ptr<EntryStream>>& m : merged) {
    if (!m) return m.error();
    streams.push_back(std::move(*m));
  }
  return streams;
}

Result<std::unique_ptr<EntryStream>> Tally::finish() {
  Result<std::vector<std::unique_ptr<EntryStream>>> streams = finish_partitions();
  if (!streams) return streams.error();
  return std::unique_ptr<EntryStream>(std::make_unique<ConcatStream>(std::move(*streams)));
}

Result<std::unique_ptr<EntryStream>> Tally::merge_partition(Partition& partition) {
  std::vector<std::unique_ptr<EntryStream>> tables;
  std::vector<SpilledRun> runs;
  partition.sorted_sources(tables, runs);

  // Read buffers share a slice of what the tables were allowed: at least a page, at most 256 KiB
  // per run (larger ones only cost fresh pages: the runs were just written and are read from
  // the page cache).
  auto buffer_size = [&](size_t open_runs) {
    uint64_t share = partition.table_budget() / 8 / std::max<size_t>(open_runs, 1);
    return size_t(std::clamp<uint64_t>(share, 4 << 10, 256 << 10));
  };
  std::shared_ptr<SpillFile> merge_file;
  while (runs.size() > kMaxFanIn) {
    // Merge the oldest runs into one, until everything fits a single merge.
    if (!merge_file) {
      auto file = SpillFile::create(options_.tmp_dir);
      if (!file) return file.error();
      merge_file = std::move(*file);
    }
    size_t batch = std::min(runs.size(), kMaxFanIn);
    std::vector<std::unique_ptr<EntryStream>> readers;
    for (size_t i = 0; i < batch; ++i)
      readers.push_back(std::make_unique<RunReader>(runs[i], buffer_size(batch)));
    auto merged = write_run(std::move(readers), merge_file);
    if (!merged) return merged.error();
    runs.erase(runs.begin(), runs.begin() + long(batch));
    ++merge_passes_;
    merge_spill_bytes_ += merged->bytes;
    runs.push_back(std::move(*merged));
  }
  std::vector<std::unique_ptr<EntryStream>> sources = std::move(tables);
  size_t buffer = buffer_size(runs.size());
  for (SpilledRun& run : runs) sources.push_back(std::make_unique<RunReader>(std::move(run), buffer));
  return std::unique_ptr<EntryStream>(std::make_unique<MergedStream>(std::move(sources)));
}

TallyStats Tally::stats() const {
  TallyStats total;
  for (const auto& w : workers_) {
    const TallyStats& s = w->stats();
    total.games += s.games;
    total.plies += s.plies;
    total.repeats_skipped += s.repeats_skipped;
  }
  for (const auto& p : partitions_) {
    total.spills += p->spills();
    total.spill_bytes += p->spill_bytes();
  }
  total.merge_passes = merge_passes_;
  total.spill_bytes += merge_spill_bytes_;
  return total;
}

}  // namespace bookforge::counts
