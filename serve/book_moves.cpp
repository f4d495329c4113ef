#include "serve/book_moves.h"

#include <algorithm>
#include <cmath>

#include "book/polyglot/probe.h"
#include "json/book_json.h"

namespace bookforge::serve {

json::Json book_moves_json(std::span<const NamedBook> books, const chess::Board& board) {
  json::Json out = json::Json::array();
  for (const NamedBook& named : books) {
    std::vector<book::ProbedMove> probed = book::probe_book(named.book, board);
    std::erase_if(probed, [](const book::ProbedMove& p) { return p.move == chess::Move::none(); });
    std::stable_sort(probed.begin(), probed.end(), [](const book::ProbedMove& a, const book::ProbedMove& b) {
      return a.entry.weight > b.entry.weight;
    });
    uint64_t total = 0;
    for (const book::ProbedMove& p : probed) total += p.entry.weight;
    json::Json moves = json::Json::array();
    for (const book::ProbedMove& p : probed) {
      const double share = total > 0 ? std::round(1000.0 * p.entry.weight / double(total)) / 10.0 : 0.0;
      json::Json move = json::to_json(p, board);
      move["share"] = share;
      moves.push_back(std::move(move));
    }
    out.push_back({{"name", json::outside_text(named.name)}, {"moves", std::move(moves)}});
  }
  return {{"books", std::move(out)}};
}

}  // namespace bookforge::serve
