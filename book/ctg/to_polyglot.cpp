#include "book/ctg/to_polyglot.h"

#include <algorithm>
#include <map>
#include <utility>

#include "book/polyglot/weight_scale.h"

namespace bookforge::book {
namespace {

uint64_t marked(uint64_t raw, const CtgMove& m) {
  if (m.recommendation & kCtgMarkedRed) return 0;
  switch (m.annotation) {
    case kCtgMistake:
    case kCtgBlunder:
      return 0;
    case kCtgDubious:
      raw = (raw + 1) / 2;
      break;
    case kCtgGood:
      raw *= 2;
      break;
    case kCtgExcellent:
      raw *= 4;
      break;
    default:
      break;
  }
  return m.recommendation & kCtgMarkedGreen ? raw * 2 : raw;
}

// One position's entries (its moves, each once) appended to `out`.
void add_position(const std::vector<const CtgMove*>& position, std::vector<PolyglotEntry>& out) {
  const bool by_results = std::any_of(position.begin(), position.end(),
                                      [](const CtgMove* m) { return m->wins + m->draws + m->losses > 0; });
  const bool by_games =
      std::any_of(position.begin(), position.end(), [](const CtgMove* m) { return m->games > 0; });
  std::vector<uint64_t> raw;
  for (const CtgMove* m : position) {
    const uint64_t base = by_results ? 2 * uint64_t(m->wins) + m->draws : by_games ? m->games : 1;
    raw.push_back(marked(base, *m));
  }
  const uint64_t heaviest = *std::max_element(raw.begin(), raw.end());
  for (size_t i = 0; i < position.size(); ++i) {
    // A move the book holds but weighs 0 keeps weight 0 (never chosen, still listed).
    const uint16_t weight = raw[i] == 0 ? 0 : scale_weight(raw[i], heaviest);
    out.push_back(PolyglotEntry{position[i]->key, position[i]->move, weight, 0});
  }
}

}  // namespace

std::vector<PolyglotEntry> ctg_to_polyglot(const std::vector<CtgMove>& moves) {
  std::map<std::pair<uint64_t, uint16_t>, const CtgMove*> unique;
  for (const CtgMove& m : moves) unique.emplace(std::make_pair(m.key, m.move), &m);
  std::vector<PolyglotEntry> out;
  out.reserve(unique.size());
  std::vector<const CtgMove*> position;
  for (auto it = unique.begin(); it != unique.end();) {
    const uint64_t key = it->first.first;
    position.clear();
    for (; it != unique.end() && it->first.first == key; ++it) position.push_back(it->second);
    add_position(position, out);
  }
  std::sort(out.begin(), out.end(), book_order);
  return out;
}

Result<PolyglotBook> polyglot_from_ctg(std::span<const unsigned char> bytes, const std::string& name) {
  Result<std::vector<CtgMove>> moves = read_ctg(bytes, name);
  if (!moves.ok()) return moves.error();
  return PolyglotBook::from_entries(ctg_to_polyglot(*moves), name);
}

}  // namespace bookforge::book
