// How `db add` should merge a sorted tally stream into a store. Three ways, each timed on a
// fresh copy of the same store: /1 a store of kBaseRows rows and a stream of kNewRows entries
// of which half are already in the store (the other half new); /0 the same stream into an
// empty store (every entry an insert):
//
//   VtabUpsert     what Store::merge does: one INSERT ... SELECT FROM entry_stream
//                  ... ON CONFLICT DO UPDATE statement reading the stream as a virtual table
//   RowUpsert      the same upsert as a prepared one-row statement, stepped once per entry
//   MergeJoin      a second connection reads the store's rows in key order (its WAL snapshot
//                  does not see the writer's changes) beside the stream; an entry that matches
//                  a row is an UPDATE of that row, any other an INSERT
//
// Timings include the commit. Run: build/bin/bench_db_merge (BOOKFORGE_BENCH_TMP picks the
// folder for the stores, default /tmp).
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "store/row.h"
#include "store/store.h"

namespace bookforge {
namespace {

namespace fs = std::filesystem;
using counts::TallyEntry;

constexpr size_t kBaseRows = 1'000'000;
constexpr size_t kNewRows = 500'000;

counts::TallyEntry random_entry(std::mt19937_64& rng, uint64_t key, uint16_t move) {
  counts::TallyEntry e;
  e.key = key;
  e.move = move;
  e.white_wins = uint32_t(rng() % 3);
  e.draws = uint32_t(rng() % 2);
  e.black_wins = uint32_t(rng() % 2);
  e.games = e.white_wins + e.draws + e.black_wins + 1;
  e.rated_games = e.games;
  e.rating_sum = 2400ull * e.games;
  e.first_ply = uint16_t(rng() % 40);
  return e;
}

// Removes the stores when the program ends (a copy of the paths: it may outlive Data).
struct RemoveOnExit {
  std::vector<fs::path> paths;
  ~RemoveOnExit() {
    for (const fs::path& p : paths) fs::remove(p);
  }
};

struct Data {
  fs::path base;                          // kBaseRows rows
  fs::path empty;                         // no rows
  std::vector<counts::TallyEntry> fresh;  // the stream to merge, sorted
};

class VectorStream final : public counts::EntryStream {
 public:
  explicit VectorStream(const std::vector<counts::TallyEntry>& v) : v_(v) {}
  bool next(counts::TallyEntry& e) override {
    if (at_ == v_.size()) return false;
    e = v_[at_++];
    return true;
  }
  Status status() const override { return ok_status(); }

 private:
  const std::vector<counts::TallyEntry>& v_;
  size_t at_ = 0;
};

const Data& data() {
  static const Data d = [] {
    Data out;
    const char* tmp = std::getenv("BOOKFORGE_BENCH_TMP");
    out.base = fs::path(tmp && *tmp ? tmp : "/tmp") /
               ("bookforge_merge_base." + std::to_string(::getpid()) + ".sqlite");
    std::mt19937_64 rng(1);
    std::vector<counts::TallyEntry> base;
    for (size_t i = 0; i < kBaseRows; ++i)
      base.push_back(random_entry(rng, rng(), uint16_t(1 + rng() % 4000)));
    std::sort(base.begin(), base.end(), counts::tally_order);
    base.erase(std::unique(base.begin(), base.end(),
                           [](const counts::TallyEntry& a, const counts::TallyEntry& b) {
                             return a.key == b.key && a.move == b.move;
                           }),
               base.end());
    for (size_t i = 0; i < kNewRows / 2; ++i) {
      const counts::TallyEntry& old = base[rng() % base.size()];
      out.fresh.push_back(random_entry(rng, old.key, old.move));
      out.fresh.push_back(random_entry(rng, rng(), uint16_t(1 + rng() % 4000)));
    }
    std::sort(out.fresh.begin(), out.fresh.end(), counts::tally_order);
    out.fresh.erase(std::unique(out.fresh.begin(), out.fresh.end(),
                                [](const counts::TallyEntry& a, const counts::TallyEntry& b) {
                                  return a.key == b.key && a.move == b.move;
                                }),
                    out.fresh.end());
    out.empty = out.base;
    out.empty += ".empty";
    for (auto& [path, rows] :
         {std::pair{out.base, base}, std::pair{out.empty, std::vector<counts::TallyEntry>{}}}) {
      fs::remove(path);
      Result<store::Store> s = store::Store::create(path.string());
      VectorStream stream(rows);
      if (!s || !s->begin().ok() || !s->merge(stream).ok() || !s->commit().ok() || !s->close().ok())
        std::abort();
    }
    static RemoveOnExit cleanup{{out.base, out.empty}};
    return out;
  }();
  return d;
}

fs::path fresh_copy(benchmark::State& state) {
  state.PauseTiming();
  const fs::path& original = state.range(0) ? data().base : data().empty;
  fs::path copy = data().base;
  copy += ".copy";
  fs::remove(copy);
  fs::copy_file(original, copy);
  state.ResumeTiming();
  return copy;
}

void finish(benchmark::State& state, const fs::path& copy) {
  state.PauseTiming();
  fs::remove(copy);
  state.ResumeTiming();
}

void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) std::abort();
}

void bind_entry(sqlite3_stmt* s, const counts::TallyEntry& e) {
  const int64_t values[9] = {
      store::key_to_db(e.key), e.move,        e.white_wins, e.draws, e.black_wins, e.games,
      int64_t(e.rating_sum),   e.rated_games, e.first_ply};
  for (int i = 0; i < 9; ++i) sqlite3_bind_int64(s, i + 1, values[i]);
}

void VtabUpsert(benchmark::State& state) {
  for (auto _ : state) {
    fs::path copy = fresh_copy(state);
    Result<store::Store> s = store::Store::open(copy.string(), true);
    VectorStream stream(data().fresh);
    if (!s || !s->begin().ok() || !s->merge(stream).ok() || !s->commit().ok() || !s->close().ok())
      std::abort();
    finish(state, copy);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * data().fresh.size()));
}

void RowUpsert(benchmark::State& state) {
  for (auto _ : state) {
    fs::path copy = fresh_copy(state);
    sqlite3* db = nullptr;
    sqlite3_open(copy.c_str(), &db);
    exec(db,
         "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -65536; BEGIN IMMEDIATE");
    sqlite3_stmt* upsert = nullptr;
    sqlite3_prepare_v2(
        db,
        "INSERT INTO tree VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (key, move) DO UPDATE "
        "SET white = white + excluded.white, draws = draws + excluded.draws, black = black + "
        "excluded.black, games = games + excluded.games, rating_sum = rating_sum + excluded.rating_sum, "
        "rated = rated + excluded.rated, first_ply = min(first_ply, excluded.first_ply)",
        -1, &upsert, nullptr);
    // Unsigned key order is the order of the stream; the two halves of the signed range come out
    // in turn, as the tally delivers them.
    for (const counts::TallyEntry& e : data().fresh) {
      bind_entry(upsert, e);
      if (sqlite3_step(upsert) != SQLITE_DONE) std::abort();
      sqlite3_reset(upsert);
    }
    sqlite3_finalize(upsert);
    exec(db, "COMMIT");
    sqlite3_close(db);
    finish(state, copy);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * data().fresh.size()));
}

void MergeJoin(benchmark::State& state) {
  for (auto _ : state) {
    fs::path copy = fresh_copy(state);
    sqlite3* writer = nullptr;
    sqlite3* reader = nullptr;
    sqlite3_open(copy.c_str(), &writer);
    exec(writer, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -65536");
    sqlite3_open_v2(copy.c_str(), &reader, SQLITE_OPEN_READONLY, nullptr);
    exec(reader, "BEGIN");  // the snapshot: the old rows only
    sqlite3_stmt* scan = nullptr;
    sqlite3_prepare_v2(reader,
                       "SELECT key, move, white, draws, black, games, rating_sum, rated, first_ply FROM tree "
                       "WHERE key >= 0 ORDER BY key, move",
                       -1, &scan, nullptr);
    sqlite3_stmt* scan_negative = nullptr;
    sqlite3_prepare_v2(reader,
                       "SELECT key, move, white, draws, black, games, rating_sum, rated, first_ply FROM tree "
                       "WHERE key < 0 ORDER BY key, move",
                       -1, &scan_negative, nullptr);
    exec(writer, "BEGIN IMMEDIATE");
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(writer, "INSERT INTO tree VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1, &insert,
                       nullptr);
    sqlite3_stmt* update = nullptr;
    sqlite3_prepare_v2(
        writer,
        "UPDATE tree SET white = ?3, draws = ?4, black = ?5, games = ?6, rating_sum = ?7, rated = ?8, "
        "first_ply = ?9 WHERE key = ?1 AND move = ?2",
        -1, &update, nullptr);
    sqlite3_stmt* current = scan;
    bool have_old = false;
    counts::TallyEntry old;
    auto advance = [&] {
      for (;;) {
        if (sqlite3_step(current) == SQLITE_ROW) {
          old.key = uint64_t(sqlite3_column_int64(current, 0));
          old.move = uint16_t(sqlite3_column_int(current, 1));
          old.white_wins = uint32_t(sqlite3_column_int64(current, 2));
          old.draws = uint32_t(sqlite3_column_int64(current, 3));
          old.black_wins = uint32_t(sqlite3_column_int64(current, 4));
          old.games = uint32_t(sqlite3_column_int64(current, 5));
          old.rating_sum = uint64_t(sqlite3_column_int64(current, 6));
          old.rated_games = uint32_t(sqlite3_column_int64(current, 7));
          old.first_ply = uint16_t(sqlite3_column_int(current, 8));
          have_old = true;
          return;
        }
        if (current == scan_negative) {
          have_old = false;
          return;
        }
        current = scan_negative;
      }
    };
    advance();
    for (const counts::TallyEntry& e : data().fresh) {
      while (have_old && counts::tally_order(old, e)) advance();
      sqlite3_stmt* s = insert;
      counts::TallyEntry merged = e;
      if (have_old && old.key == e.key && old.move == e.move) {
        merged.add(old);
        s = update;
      }
      bind_entry(s, merged);
      if (sqlite3_step(s) != SQLITE_DONE) std::abort();
      sqlite3_reset(s);
    }
    for (sqlite3_stmt* s : {scan, scan_negative, insert, update}) sqlite3_finalize(s);
    exec(reader, "COMMIT");
    sqlite3_close(reader);
    exec(writer, "COMMIT");
    sqlite3_close(writer);
    finish(state, copy);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * data().fresh.size()));
}

BENCHMARK(VtabUpsert)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(RowUpsert)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(MergeJoin)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace bookforge

BENCHMARK_MAIN();
