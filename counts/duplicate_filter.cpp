#include "counts/duplicate_filter.h"

#include "counts/game_fingerprint.h"

namespace bookforge::counts {

class DuplicateFilter::Sink final : public pgn::GameSink {
 public:
  Sink(DuplicateFilter& filter, pgn::GameSink& inner) : filter_(filter), inner_(inner) {}

  void on_game(const pgn::ReplayedGame& game) override {
    const uint64_t fingerprint = game_fingerprint(game);
    if (!filter_.seen_.insert(fingerprint)) {
      ++duplicates_;
      if (filter_.copies_ == Copies::kDrop) return;
    }
    KnownFingerprint known(game, fingerprint);
    inner_.on_game(game);
  }
  void on_end() override { inner_.on_end(); }

  uint64_t duplicates() const { return duplicates_; }

 private:
  DuplicateFilter& filter_;
  pgn::GameSink& inner_;
  uint64_t duplicates_ = 0;
};

DuplicateFilter::DuplicateFilter(Copies copies) : copies_(copies) {}

DuplicateFilter::~DuplicateFilter() = default;

pgn::SinkFactory DuplicateFilter::wrap(pgn::SinkFactory inner) {
  return [this, inner = std::move(inner)](int index) -> pgn::GameSink& {
    return *sinks_.emplace_back(std::make_unique<Sink>(*this, inner(index)));
  };
}

uint64_t DuplicateFilter::duplicates() const {
  uint64_t total = 0;
  for (const auto& sink : sinks_) total += sink->duplicates();
  return total;
}

}  // namespace bookforge::counts
