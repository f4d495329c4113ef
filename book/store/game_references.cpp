#include "book/store/game_references.h"

#include <algorithm>

#include "book/game_fingerprint.h"
#include "book/store/row.h"

namespace bookforge::store {
namespace {

// The order rows are stored in: signed key, then signed fingerprint (book/store/row.h).
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

// A worker's list is reduced once it holds this many entries (24 MiB), or its share of the
// memory budget if that is smaller; reducing early keeps the lists of common positions short.
constexpr size_t kMaxEntriesBeforeReducing = size_t(1) << 20;
constexpr size_t kMinEntriesBeforeReducing = size_t(1) << 16;

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

class GameReferences::Sink final : public pgn::GameSink {
 public:
  Sink(const GameReferences& owner, pgn::GameSink& inner, int64_t input, size_t capacity)
      : owner_(owner), inner_(inner), input_(input), capacity_(capacity) {
    positions_.reserve(capacity_);
  }

  void on_game(const pgn::ReplayedGame& game) override {
    const uint64_t fingerprint = book::game_fingerprint(game);
    records_.push_back(game_record(game, fingerprint, input_));
    const GameRecord& r = records_.back();
    const uint32_t date = date_rank(r.date);
    const uint16_t rating = rating_rank(r.white_elo, r.black_elo);
    for (const pgn::PlyRecord& ply : game.plies) {
      if (ply.ply >= owner_.plies_) break;
      positions_.push_back({ply.key, fingerprint, date, rating});
    }
    if (positions_.size() >= capacity_) {
      keep_top_and_recent(positions_);
      if (positions_.size() > capacity_ / 2) capacity_ *= 2;
    }
    inner_.on_game(game);
  }
  // Reduced here, on every worker at once, rather than all together after the read.
  void on_end() override {
    keep_top_and_recent(positions_);
    inner_.on_end();
  }

  std::vector<GameRecord>& records() { return records_; }
  std::vector<PositionGame>& positions() { return positions_; }

 private:
  const GameReferences& owner_;
  pgn::GameSink& inner_;
  int64_t input_;
  size_t capacity_;
  std::vector<GameRecord> records_;
  std::vector<PositionGame> positions_;
};

GameReferences::GameReferences(int plies, uint64_t memory_budget, int workers)
    : plies_(plies),
      entries_per_sink_(
          std::clamp<size_t>(memory_budget / 4 / sizeof(PositionGame) / size_t(std::max(workers, 1)),
                             kMinEntriesBeforeReducing, kMaxEntriesBeforeReducing)) {}

GameReferences::~GameReferences() = default;

pgn::SinkFactory GameReferences::wrap(pgn::SinkFactory inner, int64_t input) {
  return [this, inner = std::move(inner), input](int index) -> pgn::GameSink& {
    return *sinks_.emplace_back(std::make_unique<Sink>(*this, inner(index), input, entries_per_sink_));
  };
}

std::vector<GameRecord> GameReferences::take_records() {
  size_t total = 0;
  for (auto& sink : sinks_) total += sink->records().size();
  std::vector<GameRecord> all;
  all.reserve(total);
  for (auto& sink : sinks_) {
    for (GameRecord& r : sink->records()) all.push_back(std::move(r));
    std::vector<GameRecord>().swap(sink->records());  // its memory goes now, not after the merge
  }
  std::sort(all.begin(), all.end(), [](const GameRecord& a, const GameRecord& b) {
    return int64_t(a.fingerprint) < int64_t(b.fingerprint);
  });
  // Copies (kept with --keep-duplicates) have one record.
  all.erase(
      std::unique(all.begin(), all.end(),
                  [](const GameRecord& a, const GameRecord& b) { return a.fingerprint == b.fingerprint; }),
      all.end());
  return all;
}

std::vector<PositionGame> GameReferences::take_positions() {
  std::vector<PositionGame> all;
  for (auto& sink : sinks_) {
    all.insert(all.end(), sink->positions().begin(), sink->positions().end());
    std::vector<PositionGame>().swap(sink->positions());
  }
  keep_top_and_recent(all);
  return all;
}

}  // namespace bookforge::store
