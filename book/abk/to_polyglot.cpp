#include "book/abk/to_polyglot.h"

#include <algorithm>
#include <map>
#include <utility>

#include "book/polyglot/weight_scale.h"

namespace bookforge::book {
namespace {

struct MoveSums {
  uint64_t games = 0;
  uint8_t priority = 0;
};

// One position's entries, from the sums of its moves.
void add_position(const std::vector<std::pair<uint16_t, MoveSums>>& position, uint64_t key,
                  std::vector<PolyglotEntry>& out) {
  uint64_t games = 0;
  for (const auto& [move, sums] : position) games += sums.games;
  const bool by_games = games > 0;
  uint64_t heaviest = 0;
  for (const auto& [move, sums] : position)
    heaviest = std::max<uint64_t>(heaviest, by_games ? sums.games : sums.priority);
  for (const auto& [move, sums] : position) {
    const uint64_t raw = by_games ? sums.games : sums.priority;
    // A move the book holds but weighs 0 keeps weight 0 (never chosen, still listed).
    const uint16_t weight = raw == 0 ? 0 : scale_weight(raw, heaviest);
    out.push_back(PolyglotEntry{key, move, weight, 0});
  }
}

}  // namespace

std::vector<PolyglotEntry> abk_to_polyglot(const std::vector<AbkMove>& moves) {
  std::map<std::pair<uint64_t, uint16_t>, MoveSums> sums;
  for (const AbkMove& m : moves) {
    MoveSums& s = sums[{m.key, m.move}];
    s.games += m.games;
    s.priority = std::max(s.priority, m.priority);
  }
  std::vector<PolyglotEntry> out;
  out.reserve(sums.size());
  std::vector<std::pair<uint16_t, MoveSums>> position;
  for (auto it = sums.begin(); it != sums.end();) {
    const uint64_t key = it->first.first;
    position.clear();
    for (; it != sums.end() && it->first.first == key; ++it)
      position.emplace_back(it->first.second, it->second);
    add_position(position, key, out);
  }
  std::sort(out.begin(), out.end(), book_order);
  return out;
}

Result<PolyglotBook> polyglot_from_abk(std::span<const unsigned char> bytes, const std::string& name) {
  Result<std::vector<AbkMove>> moves = read_abk(bytes, name);
  if (!moves.ok()) return moves.error();
  return PolyglotBook::from_entries(abk_to_polyglot(*moves), name);
}

}  // namespace bookforge::book
