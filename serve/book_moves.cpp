#include "serve/book_moves.h"

#include <algorithm>
#include <cmath>

#include "book/polyglot/probe.h"
#include "chess/san.h"

namespace bookforge::serve {

nlohmann::ordered_json book_moves_json(std::span<const NamedBook> books, const chess::Board& board) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NamedBook& named : books) {
    std::vector<book::ProbedMove> probed = book::probe_book(named.book, board);
    std::erase_if(probed, [](const book::ProbedMove& p) { return p.move == chess::Move::none(); });
    std::stable_sort(probed.begin(), probed.end(), [](const book::ProbedMove& a, const book::ProbedMove& b) {
      return a.entry.weight > b.entry.weight;
    });
    uint64_t total = 0;
    for (const book::ProbedMove& p : probed) total += p.entry.weight;
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const book::ProbedMove& p : probed) {
      const double share = total > 0 ? std::round(1000.0 * p.entry.weight / double(total)) / 10.0 : 0.0;
      moves.push_back({{"uci", chess::move_to_uci(p.move)},
                       {"san", chess::move_to_san(board, p.move)},
                       {"weight", p.entry.weight},
                       {"learn", p.entry.learn},
                       {"share", share}});
    }
    out.push_back({{"name", named.name}, {"moves", std::move(moves)}});
  }
  return {{"books", std::move(out)}};
}

}  // namespace bookforge::serve
