#include "store/slice_counts.h"

#include <sqlite3.h>

#include <algorithm>
#include <vector>

namespace bookforge::store {
namespace {

using counts::get_varint;
using counts::kCountedFieldCount;
using counts::kMaxVarintBytes;
using counts::put_varint;

// A row's totals from the merge function's arguments, starting at `first`.
counts::TallyEntry totals_from(sqlite3_value** values, int first) {
  counts::TallyEntry e;
  int i = first;
#define BOOKFORGE_TOTAL(name, type, merge, column, one_game, without_slot) \
  e.name = type(sqlite3_value_int64(values[i++]));
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_TOTAL)
#undef BOOKFORGE_TOTAL
  return e;
}

std::string_view blob_of(sqlite3_value* value) {
  const void* data = sqlite3_value_blob(value);
  return std::string_view(static_cast<const char*>(data), size_t(sqlite3_value_bytes(value)));
}

// merge_slices(old, new, old totals..., new totals...): the slices of both, equal slices summed.
void merge_slices(sqlite3_context* context, int, sqlite3_value** values) {
  std::vector<counts::TallyEntry> a, b;
  const bool ok = for_each_slice(blob_of(values[0]), totals_from(values, 2),
                                 [&](const counts::TallyEntry& e) { a.push_back(e); }) &&
                  for_each_slice(blob_of(values[1]), totals_from(values, 2 + counts::kCountedFieldCount),
                                 [&](const counts::TallyEntry& e) { b.push_back(e); });
  if (!ok) {
    sqlite3_result_error(context, "a row's slices are damaged", -1);
    return;
  }
  std::vector<counts::TallyEntry> merged;
  merged.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].slice < b[j].slice)) {
      merged.push_back(a[i++]);
    } else if (i == a.size() || b[j].slice < a[i].slice) {
      merged.push_back(b[j++]);
    } else {
      merged.push_back(a[i++]);
      merged.back().add(b[j++]);
    }
  }
  std::string blob;
  if (merged.size() == 1) {
    blob = single_slice_blob(merged[0].slice);
  } else {
    uint32_t previous = 0;
    for (const counts::TallyEntry& e : merged) append_slice(blob, previous, e);
  }
  sqlite3_result_blob(context, blob.data(), int(blob.size()), SQLITE_TRANSIENT);
}

}  // namespace

void append_slice(std::string& blob, uint32_t& previous, const counts::TallyEntry& counts) {
  // Encoded into a buffer and appended at once: a byte-by-byte push_back per varint took a
  // few percent of a whole db add (this runs on the thread that feeds SQLite).
  uint8_t record[counts::kMaxVarintBytes * (1 + counts::kCountedFieldCount)];
  size_t n = counts::put_varint(record, counts.slice - previous);
  previous = counts.slice;
#define BOOKFORGE_PUT_SLICE_FIELD(name, type, merge, column, one_game, without_slot) \
  n += counts::put_varint(record + n, counts.name);
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_PUT_SLICE_FIELD)
#undef BOOKFORGE_PUT_SLICE_FIELD
  blob.append(reinterpret_cast<const char*>(record), n);
}

std::string single_slice_blob(uint32_t slice) {
  uint8_t bytes[counts::kMaxVarintBytes];
  return std::string(reinterpret_cast<const char*>(bytes), counts::put_varint(bytes, slice));
}

bool sum_slices(std::string_view blob, const counts::TallyEntry& total, const SliceFilter& filter,
                FilteredCounts& out) {
  out = FilteredCounts{};
  out.counts.key = total.key;
  out.counts.move = total.move;
  return for_each_slice(blob, total, [&](const counts::TallyEntry& e) {
    if (!filter.accepts(e.slice)) return;
    out.counts.add(e);  // keeps out.counts' slice 0
    if (const uint32_t month = slice_month(e.slice); month != 0) {
      out.first_month = out.first_month == 0 ? month : std::min(out.first_month, month);
      out.last_month = std::max(out.last_month, month);
    }
  });
}

bool SlicedRows::next(counts::TallyEntry& total) {
  if (!has_pending_ && !sliced_.next(pending_)) return false;
  has_pending_ = false;
  total = pending_;
  total.slice = 0;
  const counts::TallyEntry first = pending_;
  uint32_t previous = 0;
  bool several = false;
  blob_.clear();
  counts::TallyEntry previous_entry = first;
  while (sliced_.next(pending_)) {
    if (!counts::tally_order(previous_entry, pending_)) {
      error_ = "entry stream out of (key, move, slice) order";
      return false;
    }
    previous_entry = pending_;
    if (pending_.key != first.key || pending_.move != first.move) {
      has_pending_ = true;
      break;
    }
    if (!several) append_slice(blob_, previous, first);
    several = true;
    append_slice(blob_, previous, pending_);
    total.add(pending_);  // keeps total's slice 0
  }
  if (!several) blob_ = single_slice_blob(first.slice);
  return true;
}

Status register_slice_functions(Connection& db) {
  if (sqlite3_create_function_v2(db.handle(), "merge_slices", 2 + 2 * counts::kCountedFieldCount,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, merge_slices, nullptr, nullptr,
                                 nullptr) != SQLITE_OK)
    return db.error("cannot register merge_slices");
  return ok_status();
}

std::string merge_slices_call() {
  std::string old_totals, new_totals;
#define BOOKFORGE_TOTAL_ARG(name, type, merge, column, one_game, without_slot) \
  old_totals += std::string(", ") + column;                                    \
  new_totals += std::string(", excluded.") + column;
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_TOTAL_ARG)
#undef BOOKFORGE_TOTAL_ARG
  return "merge_slices(slices, excluded.slices" + old_totals + new_totals + ")";
}

}  // namespace bookforge::store
