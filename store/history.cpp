#include "store/history.h"

#include <map>

#include "chess/polyglot_move.h"
#include "store/slice_counts.h"

namespace bookforge::store {
namespace {

// Month codes (counts/slice.h) step by 13 a year, month 0 within a year standing for "unknown".
bool has_month(uint32_t code) { return code != 0 && counts::month_of(code) != 0; }
uint32_t next_month(uint32_t code) { return counts::month_of(code) == 12 ? code + 2 : code + 1; }

}  // namespace

Result<History> position_history(Store& store, const chess::Board& board, const counts::SliceFilter& filter) {
  Result<std::vector<StoredMove>> rows = store.moves_with_slices_at(board.key());
  if (!rows) return rows.error();
  History out;
  std::map<uint32_t, MonthResults> by_month;
  for (const StoredMove& row : *rows) {
    // A row whose move is illegal here belongs to another position under the same key.
    if (chess::polyglot_to_move(board, row.total.move) == chess::Move::none()) continue;
    const bool read = for_each_slice(row.slices, row.total, [&](const counts::TallyEntry& e) {
      if (!filter.accepts(e.slice)) return;
      const uint32_t code = counts::slice_month(e.slice);
      if (!has_month(code)) {
        out.undated += e.games;
        return;
      }
      MonthResults& m = by_month[code];
      m.white += e.white_wins;
      m.draws += e.draws;
      m.black += e.black_wins;
      m.games += e.games;
    });
    if (!read)
      return Error{store.path() + ": damaged slices in the row of key " + std::to_string(board.key())};
  }
  uint32_t first = filter.since, last = filter.until;
  if (first == 0 && !by_month.empty()) first = by_month.begin()->first;
  if (last == 0 && !by_month.empty()) last = by_month.rbegin()->first;
  if (first == 0 || last == 0) return out;
  if (!has_month(first)) first = next_month(first);
  for (uint32_t code = first; code <= last; code = next_month(code)) {
    MonthResults m = by_month.count(code) ? by_month[code] : MonthResults{};
    m.year = *counts::month_year(code);
    m.month = counts::month_of(code);
    out.months.push_back(m);
  }
  return out;
}

}  // namespace bookforge::store
