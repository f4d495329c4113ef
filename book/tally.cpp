#include "book/tally.h"

#include <algorithm>
#include <limits>

#include "book/entry_merge.h"
#include "book/repeat_filter.h"
#include "book/run_file.h"
#include "book/tally_table.h"

namespace bookforge::book {
namespace {

// More runs than this are merged in several passes (each open run costs a descriptor and a
// read buffer).
constexpr size_t kMaxFanIn = 64;
constexpr size_t kInitialCompactSlots = 1 << 14;
constexpr size_t kInitialWideSlots = 1 << 8;
// The tables start with TallyOptions::starting_table_memory and double it after every
// kSpillsPerStep spills, up to the budget. Counting into tables past the caches costs a miss a
// ply however large they are, and a spill is a sequential write, so a small input stays small
// in memory at no cost in time; a huge one soon gets large tables, which keeps its run count
// (and so the final merge's fan-in) bounded.
constexpr unsigned kSpillsPerStep = 4;

// Reads `streams` through a merge into a new run appended to `file`.
Result<SpilledRun> write_run(std::vector<std::unique_ptr<EntryStream>> streams,
                             std::shared_ptr<TempFile> file) {
  RunWriter writer(std::move(file));
  MergedStream merged(std::move(streams));
  TallyEntry e;
  while (merged.next(e)) writer.add(e);
  if (Status s = merged.status(); !s.ok()) return s.error();
  return writer.finish();
}

// Adds one game to a compact slot; false if the slot cannot take it (a counter or the rating
// sum would overflow, or the game has no result), and the game then goes to the wide table.
inline bool add_game(CompactSlot& s, pgn::Outcome outcome, uint16_t game_ply, uint16_t elo) {
  uint16_t& result = outcome == pgn::Outcome::kWhiteWins ? s.white_wins
                     : outcome == pgn::Outcome::kDraw    ? s.draws
                                                         : s.black_wins;
  bool rating_fits =
      elo == 0 || (s.rated_games < 0xffff && s.rating_sum <= std::numeric_limits<uint32_t>::max() - elo);
  if (result == 0xffff || !rating_fits) return false;
  ++result;
  if (elo != 0) ++s.rated_games, s.rating_sum += elo;
  s.first_ply = std::min(s.first_ply, game_ply);
  return true;
}

inline bool add_game(SmallSlot& s, pgn::Outcome outcome, uint16_t game_ply, uint16_t /*elo: not kept*/) {
  uint8_t& result = outcome == pgn::Outcome::kWhiteWins ? s.white_wins
                    : outcome == pgn::Outcome::kDraw    ? s.draws
                                                        : s.black_wins;
  if (result == 0xff) return false;
  ++result;
  s.first_ply = std::min(s.first_ply, game_ply);
  return true;
}

}  // namespace

// What Tally needs of a worker, whichever compact slot it counts into.
class Tally::Worker : public pgn::GameSink {
 public:
  explicit Worker(uint64_t table_budget) : table_budget_(table_budget) {}
  // The tables (already sorted) for the final merge, and the runs.
  virtual void sorted_sources(std::vector<std::unique_ptr<EntryStream>>& tables,
                              std::vector<SpilledRun>& runs) = 0;
  const std::string& error() const { return error_; }
  const TallyStats& stats() const { return stats_; }
  // What the tables may take now (grows with spills up to the worker's share of the budget).
  uint64_t table_budget() const { return table_budget_; }

 protected:
  uint64_t table_budget_;
  TallyStats stats_;
  std::string error_;
};

namespace {

template <class Compact>
class SlotWorker final : public Tally::Worker {
 public:
  SlotWorker(const TallyOptions& options, uint64_t budget)
      : Worker(std::min(budget, options.starting_table_memory / uint64_t(std::max(options.workers, 1)))),
        options_(options),
        budget_(budget),
        compact_(std::min<uint64_t>(kInitialCompactSlots,
                                    std::max<uint64_t>(table_budget_ / 2 / sizeof(Compact), 64))),
        wide_(kInitialWideSlots) {}

  void on_game(const pgn::ReplayedGame& game) override {
    if (!error_.empty()) return;
    ++stats_.games;
    const uint8_t* repeated = options_.count_repeats ? nullptr : repeats_.mark(game.plies);
    const size_t n = game.plies.size();
    // The slots are scattered over a large table: ask for a few plies ahead so that their
    // cache misses overlap instead of coming one after another.
    constexpr size_t kAhead = 4;
    for (size_t i = 0; i < std::min(n, kAhead); ++i) compact_.prefetch(game.plies[i].key);
    for (size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) compact_.prefetch(game.plies[i + kAhead].key);
      const pgn::PlyRecord& ply = game.plies[i];
      if (ply.move == 0) continue;  // a null move has no Polyglot encoding
      if (repeated && repeated[i]) {
        ++stats_.repeats_skipped;
        continue;
      }
      unsigned game_ply = std::min<unsigned>(unsigned(game.start_ply) + ply.ply, 0xfffe);
      uint16_t elo = !options_.ratings ? 0 : (game_ply & 1) ? game.black_elo : game.white_elo;
      count(ply.key, ply.move, uint16_t(game_ply), game.outcome, elo);
      ++stats_.plies;
      if (!error_.empty()) return;
    }
  }

  void sorted_sources(std::vector<std::unique_ptr<EntryStream>>& tables,
                      std::vector<SpilledRun>& runs) override {
    tables.push_back(std::make_unique<SpanStream<Compact>>(compact_.begin(), compact_.end()));
    tables.push_back(std::make_unique<SpanStream<TallyEntry>>(wide_.begin(), wide_.end()));
    for (SpilledRun& run : runs_) runs.push_back(std::move(run));
    runs_.clear();
  }

 private:
  void count(uint64_t key, uint16_t move, uint16_t game_ply, pgn::Outcome outcome, uint16_t elo) {
    if (outcome != pgn::Outcome::kUnknown) {
      Compact* s = slot_in(compact_, key, move);
      if (!s) return;
      if (add_game(*s, outcome, game_ply, elo)) return;
    }
    TallyEntry* e = slot_in(wide_, key, move);
    if (!e) return;
    ++e->games;
    if (outcome == pgn::Outcome::kWhiteWins)
      ++e->white_wins;
    else if (outcome == pgn::Outcome::kDraw)
      ++e->draws;
    else if (outcome == pgn::Outcome::kBlackWins)
      ++e->black_wins;
    if (elo != 0) ++e->rated_games, e->rating_sum += elo;
    e->first_ply = std::min(e->first_ply, game_ply);
  }

  // The slot of (key, move) in `table`, making room first when the table is full: a larger
  // table if the budget allows at least a quarter more slots, a spill otherwise. nullptr only
  // after a spill failed (error_ says why).
  template <class Slot>
  Slot* slot_in(OpenTable<Slot>& table, uint64_t key, uint16_t move) {
    if (table.over_load()) make_room(table);
    for (;;) {
      if (!error_.empty()) return nullptr;
      if (Slot* s = table.find_or_insert(key, move)) return s;
      make_room(table);
    }
  }

  template <class Slot>
  void make_room(OpenTable<Slot>& table) {
    // Tables grow in place: the new array may take everything the other table leaves.
    uint64_t others = compact_.bytes() + wide_.bytes() - table.bytes();
    uint64_t room = table_budget_ > others ? (table_budget_ - others) / sizeof(Slot) * 63 / 65 : 0;
    // Growing by half (not doubling) wastes less of the last step's memory.
    uint64_t wanted = std::min<uint64_t>(table.capacity() + table.capacity() / 2, room);
    if (wanted >= table.capacity() + table.capacity() / 4 && table.resize(wanted)) return;
    spill();
  }

  void spill() {
    std::vector<std::unique_ptr<EntryStream>> tables;
    tables.push_back(std::make_unique<SpanStream<Compact>>(compact_.begin(), compact_.end()));
    tables.push_back(std::make_unique<SpanStream<TallyEntry>>(wide_.begin(), wide_.end()));
    if (!spill_file_) {
      auto file = TempFile::create(options_.tmp_dir);
      if (!file) {
        error_ = file.error().message;
        return;
      }
      spill_file_ = std::move(*file);
    }
    auto run = write_run(std::move(tables), spill_file_);
    compact_.clear();
    wide_.clear();
    if (!run) {
      error_ = run.error().message;
      return;
    }
    ++stats_.spills;
    stats_.spill_bytes += run->bytes;
    runs_.push_back(std::move(*run));
    if (++spills_this_step_ == kSpillsPerStep && table_budget_ < budget_) {
      table_budget_ = std::min(budget_, table_budget_ * 2);
      spills_this_step_ = 0;
    }
  }

  const TallyOptions& options_;
  uint64_t budget_;  // this worker's share of the budget: the tables never take more
  unsigned spills_this_step_ = 0;
  OpenTable<Compact> compact_;
  OpenTable<TallyEntry> wide_;
  RepeatFilter repeats_;
  std::shared_ptr<TempFile> spill_file_;  // every run of this worker, one after another
  std::vector<SpilledRun> runs_;
};

}  // namespace

Tally::Tally(const TallyOptions& options) : options_(options) {
  int n = std::max(options_.workers, 1);
  for (int i = 0; i < n; ++i)
    if (options_.ratings)
      workers_.push_back(std::make_unique<SlotWorker<CompactSlot>>(options_, options_.memory_budget / n));
    else
      workers_.push_back(std::make_unique<SlotWorker<SmallSlot>>(options_, options_.memory_budget / n));
}

Tally::~Tally() = default;

pgn::GameSink& Tally::sink(int index) { return *workers_.at(size_t(index)); }

Result<std::unique_ptr<EntryStream>> Tally::finish() {
  for (const auto& w : workers_)
    if (!w->error().empty()) return Error{w->error()};
  std::vector<std::unique_ptr<EntryStream>> tables;
  std::vector<SpilledRun> runs;
  for (const auto& w : workers_) w->sorted_sources(tables, runs);

  // Read buffers share a slice of what the tables were allowed: at least 64 KiB, at most 1 MiB
  // per run.
  uint64_t table_memory = 0;
  for (const auto& w : workers_) table_memory += w->table_budget();
  auto buffer_size = [&](size_t open_runs) {
    uint64_t share = table_memory / 8 / std::max<size_t>(open_runs, 1);
    return size_t(std::clamp<uint64_t>(share, 64 << 10, 1 << 20));
  };
  std::shared_ptr<TempFile> merge_file;
  while (runs.size() > kMaxFanIn) {
    // Merge the oldest runs into one, until everything fits a single merge.
    if (!merge_file) {
      auto file = TempFile::create(options_.tmp_dir);
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
    total.spills += s.spills;
    total.spill_bytes += s.spill_bytes;
  }
  total.merge_passes = merge_passes_;
  total.spill_bytes += merge_spill_bytes_;
  return total;
}

}  // namespace bookforge::book
