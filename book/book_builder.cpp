#include "book/book_builder.h"

#include <algorithm>
#include <functional>

#include "book/book_walk.h"
#include "book/weight_scale.h"

namespace bookforge::book {
namespace {

// Hands out the stream's entries one key (one position) at a time.
class PositionReader {
 public:
  explicit PositionReader(EntryStream& stream) : stream_(stream) { has_pending_ = stream_.next(pending_); }

  bool next(std::vector<TallyEntry>& moves) {
    moves.clear();
    if (!has_pending_) return false;
    uint64_t key = pending_.key;
    do {
      moves.push_back(pending_);
      has_pending_ = stream_.next(pending_);
    } while (has_pending_ && pending_.key == key);
    return true;
  }

 private:
  EntryStream& stream_;
  TallyEntry pending_;
  bool has_pending_ = false;
};

class PositionWriter {
 public:
  explicit PositionWriter(PolyglotWriter& writer) : writer_(writer) {}

  Status write(const PositionCandidates& position) {
    if (position.moves.empty()) return ok_status();
    uint64_t heaviest = 0;
    for (const Candidate& c : position.moves) heaviest = std::max(heaviest, c.weight);
    if (heaviest > kMaxWeight) ++scaled_positions_;
    entries_.clear();
    for (const Candidate& c : position.moves)
      entries_.push_back({position.key, c.stats.move, scale_weight(c.weight, heaviest), 0});
    return writer_.add_position(entries_);
  }

  uint64_t scaled_positions() const { return scaled_positions_; }

 private:
  PolyglotWriter& writer_;
  std::vector<PolyglotEntry> entries_;
  uint64_t scaled_positions_ = 0;
};

StageCount count_positions(std::string_view name, const std::vector<PositionCandidates>& positions) {
  StageCount count{name, 0, 0};
  for (const PositionCandidates& p : positions) {
    if (p.moves.empty()) continue;
    ++count.positions;
    count.entries += p.moves.size();
  }
  return count;
}

// Walks the kept positions from the start; `visit` gets each reached one with its index. In a
// one-sided book the other side's positions have no moves: all their legal moves are followed.
uint64_t walk_kept(std::vector<PositionCandidates>& kept, SideFilter side,
                   const std::function<void(const Board&, int depth, size_t index)>& visit) {
  auto index_of = [&](uint64_t key) {
    auto it = std::lower_bound(kept.begin(), kept.end(), key,
                               [](const PositionCandidates& p, uint64_t k) { return p.key < k; });
    return it != kept.end() && it->key == key ? size_t(it - kept.begin()) : kept.size();
  };
  auto moves_of = [&](uint64_t key, std::vector<uint16_t>& moves) {
    size_t i = index_of(key);
    if (i == kept.size()) return;
    for (const Candidate& c : kept[i].moves) moves.push_back(c.stats.move);
  };
  WalkOptions options;
  if (side == SideFilter::kWhite) options.pass_through = kBlack;
  if (side == SideFilter::kBlack) options.pass_through = kWhite;
  WalkStats stats = walk_book(
      moves_of, [&](const Board& board, int depth) { visit(board, depth, index_of(board.key())); }, {},
      options);
  return stats.positions;
}

}  // namespace

Result<BuildOutcome> build_book(EntryStream& tally, const SelectionRules& rules,
                                CandidateTransformer* transformer, PolyglotWriter& writer) {
  BuildOutcome outcome;
  MoveSelector selector(rules);
  PositionReader reader(tally);
  PositionWriter out(writer);
  const bool collect = rules.prune_unreachable || transformer != nullptr;

  // Step 1: the rules, one position at a time, straight into the book unless a walk follows.
  std::vector<TallyEntry> moves;
  PositionCandidates candidates;
  std::vector<PositionCandidates> kept;
  while (reader.next(moves)) {
    if (!selector.select(moves, candidates)) continue;
    if (collect) {
      kept.push_back(std::move(candidates));
      candidates = {};
    } else if (Status s = out.write(candidates); !s.ok()) {
      return s.error();
    }
  }
  if (Status s = tally.status(); !s.ok()) return s.error();
  outcome.stages.assign(selector.stages().begin(), selector.stages().end());

  if (collect) {
    // Step 2: the transformer sees every position reachable through kept moves, with a board.
    if (transformer) {
      std::vector<ReachablePosition> reached;
      outcome.reachable_positions =
          walk_kept(kept, rules.side, [&](const Board& board, int depth, size_t index) {
            reached.push_back({board, &kept[index], depth});
          });
      std::sort(reached.begin(), reached.end(), [](const ReachablePosition& a, const ReachablePosition& b) {
        return a.candidates->key < b.candidates->key;
      });
      if (Status s = transformer->transform(reached); !s.ok()) return s.error();
      outcome.stages.push_back(count_positions(transformer->name(), kept));
    }
    // Step 3: pruning, after the transformer, which may have cut lines off.
    if (rules.prune_unreachable) {
      std::vector<bool> reachable(kept.size(), false);
      outcome.reachable_positions =
          walk_kept(kept, rules.side, [&](const Board&, int, size_t index) { reachable[index] = true; });
      for (size_t i = 0; i < kept.size(); ++i)
        if (!reachable[i]) kept[i].moves.clear();
      outcome.stages.push_back(count_positions("prune_unreachable", kept));
    }
    for (const PositionCandidates& p : kept)
      if (Status s = out.write(p); !s.ok()) return s.error();
  }
  outcome.stages.push_back({"written", writer.positions(), writer.entries()});
  outcome.scaled_positions = out.scaled_positions();
  return outcome;
}

}  // namespace bookforge::book
