#include "store/game_references.h"

#include <algorithm>

#include "counts/game_fingerprint.h"
#include "counts/varint.h"
#include "store/row.h"

namespace bookforge::store {
namespace {

// The order rows are stored in: signed key, then signed fingerprint (store/row.h).
constexpr auto kStoredOrder = [](const PositionGame& a, const PositionGame& b) {
  if (a.key != b.key) return key_to_db(a.key) < key_to_db(b.key);
  return int64_t(a.fingerprint) < int64_t(b.fingerprint);
};

// Ties go to the smaller fingerprint as stored (signed), as the store's own queries order them.
constexpr auto kHigherRated = [](const PositionGame& a, const PositionGame& b) {
  if (a.rating != b.rating) return a.rating > b.rating;
  return int64_t(a.fingerprint) < int64_t(b.fingerprint);
};

constexpr auto kMoreRecent = [](const PositionGame& a, const PositionGame& b) {
  if (a.date != b.date) return a.date > b.date;
  return int64_t(a.fingerprint) < int64_t(b.fingerprint);
};

}  // namespace

void keep_top_and_recent(std::vector<PositionGame>& games) {
  std::sort(games.begin(), games.end(), kStoredOrder);
  // One entry per (key, fingerprint): a game that reached a position twice, or a copy.
  games.erase(std::unique(games.begin(), games.end(),
                          [](const PositionGame& a, const PositionGame& b) {
                            return a.key == b.key && a.fingerprint == b.fingerprint;
                          }),
              games.end());
  constexpr size_t kKeepAll = size_t(std::min(kTopGames, kRecentGames));
  size_t out = 0;
  std::vector<PositionGame> best;
  for (size_t begin = 0; begin < games.size();) {
    size_t end = begin + 1;
    while (end < games.size() && games[end].key == games[begin].key) ++end;
    if (end - begin <= kKeepAll) {
      for (size_t i = begin; i < end; ++i) games[out++] = games[i];
    } else {
      const auto first = games.begin() + long(begin), last = games.begin() + long(end);
      const long top = std::min<long>(kTopGames, last - first),
                 recent = std::min<long>(kRecentGames, last - first);
      best.clear();
      std::partial_sort(first, first + top, last, kHigherRated);
      best.insert(best.end(), first, first + top);
      std::partial_sort(first, first + recent, last, kMoreRecent);
      for (auto g = first; g != first + recent; ++g)
        if (std::find_if(best.begin(), best.begin() + top, [&](const PositionGame& b) {
              return b.fingerprint == g->fingerprint;
            }) == best.begin() + top)
          best.push_back(*g);
      std::sort(best.begin(), best.end(), kStoredOrder);
      for (const PositionGame& g : best) games[out++] = g;
    }
    begin = end;
  }
  games.resize(out);
}

namespace {

constexpr int kInputShift = 40;  // a record's minor key: input << 40 | number in the input
constexpr uint64_t kNumberMask = (uint64_t(1) << kInputShift) - 1;

// A position game's bytes: its date (4) and rating (2); key and fingerprint are its sort key.
void encode(const PositionGame& g, char out[6]) {
  for (int i = 0; i < 4; ++i) out[i] = char(uint8_t(g.date >> (8 * i)));
  out[4] = char(uint8_t(g.rating));
  out[5] = char(uint8_t(g.rating >> 8));
}

PositionGame decode_position(int64_t key, int64_t fingerprint, std::string_view bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  PositionGame g;
  g.key = key_from_db(key);
  g.fingerprint = uint64_t(fingerprint);
  g.date = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  g.rating = uint16_t(p[4] | p[5] << 8);
  return g;
}

}  // namespace

// The references' share of --memory: an eighth, between these (they hold about 100 bytes a game
// and spill past their share: more than the most would only save a few sorted runs, less than
// the least would spill every few games).
constexpr uint64_t kMaxReferencesMemory = uint64_t(512) << 20;
constexpr uint64_t kMinReferencesMemoryPerWorker = uint64_t(1) << 20;

// A worker's list is reduced once it holds this many entries (24 MiB), or its share of the
// memory if that is smaller: reducing early keeps the lists of common positions short, and
// each reduction's sort small.
constexpr size_t kMaxPositionsBeforeReducing = size_t(1) << 20;

// What one reading worker holds, from one input to the next (see the header).
struct GameReferences::Worker {
  Worker(const std::string& tmp_dir, size_t memory)
      : records(tmp_dir, memory / 2),
        position_runs(tmp_dir, memory / 4),
        capacity(std::clamp<size_t>(memory / 4 / sizeof(PositionGame), 16, kMaxPositionsBeforeReducing)) {
    positions.reserve(capacity);
  }

  // The list held joins the runs' records (which spill as their limit says), and is emptied.
  Status hand_positions_to_runs() {
    char bytes[6];
    for (const PositionGame& g : positions) {
      encode(g, bytes);
      if (Status s = position_runs.add(key_to_db(g.key), int64_t(g.fingerprint), {bytes, sizeof bytes}); !s)
        return s;
    }
    positions.clear();
    return ok_status();
  }

  Status spill_positions() {
    if (Status s = hand_positions_to_runs(); !s) return s;
    return position_runs.spill();
  }

  RecordRuns records;
  RecordRuns position_runs;
  std::vector<PositionGame> positions;
  size_t capacity;
  Status status = ok_status();  // the first spill that failed: reading goes on, the add fails
  std::string encoded;          // a record's bytes, reused
};

class GameReferences::Sink final : public pgn::GameSink {
 public:
  Sink(const GameReferences& owner, Worker& worker, pgn::GameSink& inner, int64_t input,
       const std::vector<std::string>* inputs)
      : owner_(owner), worker_(worker), inner_(inner), input_(input), inputs_(inputs) {}

  void on_game(const pgn::ReplayedGame& game) override {
    Worker& w = worker_;
    if (w.status) {
      const uint64_t fingerprint = counts::game_fingerprint(game);
      const int64_t input = inputs_ ? int64_t(game.file - inputs_->data()) : input_;
      const GameRecord r = game_record(game, fingerprint, input);
      encode_game_record(r, w.encoded);
      w.status = w.records.add(int64_t(fingerprint),
                               int64_t(uint64_t(input) << kInputShift | (r.number & kNumberMask)), w.encoded);
      const uint32_t date = date_rank(r.date);
      const uint16_t rating = rating_rank(r.white_elo, r.black_elo);
      for (const pgn::PlyRecord& ply : game.plies) {
        if (ply.ply >= owner_.plies_) break;
        w.positions.push_back({ply.key, fingerprint, date, rating});
      }
      if (w.status && w.positions.size() >= w.capacity) {
        keep_top_and_recent(w.positions);
        if (w.positions.size() > w.capacity / 2) w.status = w.spill_positions();
      }
    }
    inner_.on_game(game);
  }
  // Reduced here, on every worker at once, rather than all together after the read.
  void on_end() override {
    keep_top_and_recent(worker_.positions);
    inner_.on_end();
  }

 private:
  const GameReferences& owner_;
  Worker& worker_;
  pgn::GameSink& inner_;
  int64_t input_;
  const std::vector<std::string>* inputs_;  // when set, a game's input is its file's index there
};

// The records of every worker, merged: the first copy of each fingerprint.
class GameReferences::Records final : public GameRecordStream {
 public:
  Records(std::vector<RecordRuns*> sources, size_t memory) : merge_(sources, memory) {}
  bool next(GameRecord& r) override {
    while (merge_.next()) {
      if (any_ && merge_.major() == last_) continue;  // a later copy of the same game
      any_ = true;
      last_ = merge_.major();
      r.fingerprint = uint64_t(merge_.major());
      r.source = merge_.minor() >> kInputShift;
      r.number = uint64_t(merge_.minor()) & kNumberMask;
      if (!decode_game_record(merge_.bytes(), r)) {
        error_ = "cannot read a game record back from a temporary file (damaged)";
        return false;
      }
      return true;
    }
    return false;
  }
  Status status() const override {
    if (!error_.empty()) return Error{error_};
    return merge_.status();
  }

 private:
  RecordMerge merge_;
  bool any_ = false;
  int64_t last_ = 0;
  std::string error_;
};

// The position lists of every worker, merged, each position's reduced once more.
class GameReferences::Positions final : public PositionGameStream {
 public:
  Positions(std::vector<RecordRuns*> sources, size_t memory) : merge_(sources, memory) {
    more_ = merge_.next();
  }
  bool next(PositionGame& g) override {
    if (at_ == group_.size()) {
      group_.clear();
      at_ = 0;
      if (!more_) return false;
      const int64_t key = merge_.major();
      do {
        group_.push_back(decode_position(key, merge_.minor(), merge_.bytes()));
        more_ = merge_.next();
      } while (more_ && merge_.major() == key);
      keep_top_and_recent(group_);
    }
    g = group_[at_++];
    return true;
  }
  Status status() const override { return merge_.status(); }

 private:
  RecordMerge merge_;
  bool more_ = false;
  std::vector<PositionGame> group_;  // one position's games
  size_t at_ = 0;
};

GameReferences::GameReferences(int plies, uint64_t memory, int workers, std::string tmp_dir)
    : plies_(plies),
      worker_memory_(size_t(memory / uint64_t(std::max(workers, 1)))),
      tmp_dir_(std::move(tmp_dir)) {}

GameReferences::~GameReferences() = default;

GameReferences::Worker& GameReferences::worker(int index) {
  while (workers_.size() <= size_t(index))
    workers_.push_back(std::make_unique<Worker>(tmp_dir_, worker_memory_));
  return *workers_[size_t(index)];
}

pgn::SinkFactory GameReferences::wrap(pgn::SinkFactory inner, int64_t input) {
  return [this, inner = std::move(inner), input](int index) -> pgn::GameSink& {
    return *sinks_.emplace_back(std::make_unique<Sink>(*this, worker(index), inner(index), input, nullptr));
  };
}

pgn::SinkFactory GameReferences::wrap(pgn::SinkFactory inner, const std::vector<std::string>& inputs) {
  return [this, inner = std::move(inner), &inputs](int index) -> pgn::GameSink& {
    return *sinks_.emplace_back(std::make_unique<Sink>(*this, worker(index), inner(index), 0, &inputs));
  };
}

uint64_t take_references_memory(counts::TallyOptions& tally) {
  const uint64_t share = std::max(std::min(tally.memory_budget / 8, kMaxReferencesMemory),
                                  kMinReferencesMemoryPerWorker * uint64_t(tally.workers));
  tally.memory_budget -= std::min(share, tally.memory_budget / 2);
  tally.starting_table_memory = std::min(tally.starting_table_memory, tally.memory_budget);
  return share;
}

std::unique_ptr<GameRecordStream> GameReferences::records() {
  std::vector<RecordRuns*> sources;
  for (auto& w : workers_) sources.push_back(&w->records);
  return std::make_unique<Records>(std::move(sources), worker_memory_ * workers_.size() / 2);
}

Result<std::unique_ptr<PositionGameStream>> GameReferences::positions() {
  std::vector<RecordRuns*> sources;
  for (auto& w : workers_) {
    // What a worker still holds joins its runs, in memory (reduced already at the input's end).
    if (Status s = w->hand_positions_to_runs(); !s) return s.error();
    std::vector<PositionGame>().swap(w->positions);
    sources.push_back(&w->position_runs);
  }
  return std::unique_ptr<PositionGameStream>(
      std::make_unique<Positions>(std::move(sources), worker_memory_ * workers_.size() / 2));
}

Status GameReferences::status() const {
  for (const auto& w : workers_)
    if (!w->status) return w->status;
  return ok_status();
}

uint64_t GameReferences::spilled_runs() const {
  uint64_t runs = 0;
  for (const auto& w : workers_) runs += w->records.runs() + w->position_runs.runs();
  return runs;
}

}  // namespace bookforge::store
