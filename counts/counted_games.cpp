#include "counts/counted_games.h"

#include <algorithm>

#include "counts/game_fingerprint.h"

namespace bookforge::counts {

class CountedGames::Sink final : public pgn::GameSink {
 public:
  Sink(const std::vector<uint64_t>& skip, pgn::GameSink& inner) : skip_(skip), inner_(inner) {}

  void on_game(const pgn::ReplayedGame& game) override {
    const uint64_t fingerprint = game_fingerprint(game);
    if (std::binary_search(skip_.begin(), skip_.end(), fingerprint)) {
      ++skipped_;
      return;
    }
    fingerprints_.push_back(fingerprint);
    KnownFingerprint known(game, fingerprint);
    inner_.on_game(game);
  }
  void on_end() override { inner_.on_end(); }

  const std::vector<uint64_t>& fingerprints() const { return fingerprints_; }
  uint64_t skipped() const { return skipped_; }

 private:
  const std::vector<uint64_t>& skip_;
  pgn::GameSink& inner_;
  std::vector<uint64_t> fingerprints_;
  uint64_t skipped_ = 0;
};

CountedGames::CountedGames(std::vector<uint64_t> skip) : skip_(std::move(skip)) {}

CountedGames::~CountedGames() = default;

pgn::SinkFactory CountedGames::wrap(pgn::SinkFactory inner) {
  return [this, inner = std::move(inner)](int index) -> pgn::GameSink& {
    return *sinks_.emplace_back(std::make_unique<Sink>(skip_, inner(index)));
  };
}

std::vector<uint64_t> CountedGames::fingerprints() const {
  std::vector<uint64_t> all;
  for (const auto& sink : sinks_)
    all.insert(all.end(), sink->fingerprints().begin(), sink->fingerprints().end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

uint64_t CountedGames::skipped() const {
  uint64_t total = 0;
  for (const auto& sink : sinks_) total += sink->skipped();
  return total;
}

}  // namespace bookforge::counts
