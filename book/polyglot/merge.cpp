#include "book/polyglot/merge.h"

#include <algorithm>

#include "book/polyglot/weight_scale.h"

namespace bookforge::book {

std::optional<MergeStrategy> parse_merge_strategy(std::string_view name) {
  if (name == "sum") return MergeStrategy::kSum;
  if (name == "max") return MergeStrategy::kMax;
  if (name == "first") return MergeStrategy::kFirst;
  return std::nullopt;
}

namespace {

struct Combined {
  uint16_t move;
  uint64_t weight;
  uint32_t learn;
};

// Adds one book's entries of a position (in file order) to the combined moves.
void combine(const PolyglotBook& book, size_t first, size_t last, MergeStrategy strategy,
             std::vector<Combined>& moves) {
  for (size_t i = first; i < last; ++i) {
    PolyglotEntry e = book.entry(i);
    auto it = std::find_if(moves.begin(), moves.end(), [&](const Combined& c) { return c.move == e.move; });
    if (it == moves.end()) {
      moves.push_back({e.move, e.weight, e.learn});
    } else if (strategy == MergeStrategy::kSum) {
      it->weight += e.weight;
    } else if (strategy == MergeStrategy::kMax) {
      it->weight = std::max<uint64_t>(it->weight, e.weight);
    }
  }
}

}  // namespace

Result<MergeStats> merge_books(const std::vector<const PolyglotBook*>& books, MergeStrategy strategy,
                               PolyglotWriter& out) {
  MergeStats stats;
  std::vector<size_t> cursor(books.size(), 0);
  std::vector<Combined> moves;
  std::vector<PolyglotEntry> entries;
  for (;;) {
    // Step 1: the smallest key any book has left.
    bool any = false;
    uint64_t key = 0;
    for (size_t b = 0; b < books.size(); ++b) {
      if (cursor[b] == books[b]->size()) continue;
      uint64_t k = books[b]->key_at(cursor[b]);
      if (!any || k < key) key = k, any = true;
    }
    if (!any) break;

    // Step 2: combine that position's moves from every book that has it.
    moves.clear();
    for (size_t b = 0; b < books.size(); ++b) {
      size_t first = cursor[b], last = first;
      while (last < books[b]->size() && books[b]->key_at(last) == key) ++last;
      if (first == last) continue;
      if (strategy != MergeStrategy::kFirst || moves.empty())
        combine(*books[b], first, last, strategy, moves);
      cursor[b] = last;
    }

    // Step 3: weights back into 16 bits, one scale for the whole position.
    uint64_t heaviest = 0;
    for (const Combined& c : moves) heaviest = std::max(heaviest, c.weight);
    if (heaviest > kMaxWeight) ++stats.rescaled_positions;
    entries.clear();
    for (const Combined& c : moves) {
      // A weight-0 entry stays 0 unless the position is scaled: merging keeps what books say.
      uint16_t weight = heaviest > kMaxWeight ? scale_weight(c.weight, heaviest) : uint16_t(c.weight);
      entries.push_back({key, c.move, weight, c.learn});
    }
    if (Status s = out.add_position(entries); !s.ok()) return s.error();
    ++stats.positions;
    stats.entries += entries.size();
  }
  return stats;
}

}  // namespace bookforge::book
