#include "store/row.h"

#include <cassert>

#include <type_traits>

namespace bookforge::store {

const std::string& row_columns() {
  static const std::string columns = std::string("key, move")
#define BOOKFORGE_COLUMN_NAME(name, type, merge, column, one_game, without_slot) +", " column
      BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_COLUMN_NAME)
#undef BOOKFORGE_COLUMN_NAME
      ;
  return columns;
}

std::string row_definitions() {
  return std::string("key INTEGER NOT NULL, move INTEGER NOT NULL")
#define BOOKFORGE_COLUMN_DEFINITION(name, type, merge, column, one_game, without_slot) \
  +", " column " INTEGER NOT NULL"
      BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_COLUMN_DEFINITION)
#undef BOOKFORGE_COLUMN_DEFINITION
          ;
}

std::string row_merge_assignments() {
  using counts::Merge;
  std::string out;
  auto assign = [&](const char* column, counts::Merge merge, bool wide) {
    const std::string c = column, x = "excluded." + c;
    out += out.empty() ? "" : ", ";
    out += c + " = " +
           (merge == counts::Merge::kMin ? "min(" + c + ", " + x + ")"
            : wide                       ? c + " + " + x
                                         : "add_count(" + c + ", " + x + ")");
  };
#define BOOKFORGE_ASSIGN(name, type, merge, column, one_game, without_slot) \
  assign(column, merge, sizeof(type) == sizeof(uint64_t));
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_ASSIGN)
#undef BOOKFORGE_ASSIGN
  return out;
}

int64_t row_value(const counts::TallyEntry& e, int column) {
  if (column == 0) return key_to_db(e.key);
  if (column == 1) return e.move;
  int index = 2;
#define BOOKFORGE_VALUE(name, type, merge, column_name, one_game, without_slot) \
  if (column == index++) return int64_t(e.name);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_VALUE)
#undef BOOKFORGE_VALUE
  return 0;
}

void read_row(const Statement& s, counts::TallyEntry& e) {
  e.key = key_from_db(s.column_int(0));
  e.move = uint16_t(s.column_int(1));
  int index = 2;
#define BOOKFORGE_READ(name, type, merge, column, one_game, without_slot) \
  e.name = type(s.column_int(index++));
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_READ)
#undef BOOKFORGE_READ
  // Every counted game has a result or not: the results never outnumber the games.
  assert(uint64_t(e.white_wins) + e.draws + e.black_wins <= e.games);
}

}  // namespace bookforge::store
