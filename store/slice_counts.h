// A (position, move)'s counts per slice (store/slice.h), as the tree table's `slices`
// column holds them: one BLOB per row, next to the row's totals.
//
// The blob is a list of records in ascending slice order, each
//
//   varint  slice - previous slice (the first: the slice itself)
//   varint  every counted field, in the order of BOOKFORGE_COUNTED_FIELDS
//
// except that a row whose games all fall in one slice (most rows: a position deep in a game is
// usually reached by one game) stores that slice's number alone: its counts are the row's.
// (varints as in the tally's run files: counts/varint.h.)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "counts/entry.h"
#include "counts/varint.h"
#include "store/slice.h"
#include "store/sqlite.h"

namespace bookforge::store {

// Appends one slice's record; `previous` is the last slice appended (0 at first).
void append_slice(std::string& blob, uint32_t& previous, const counts::TallyEntry& counts);
// The blob of a row whose games all fall in `slice`.
std::string single_slice_blob(uint32_t slice);

// Calls f(counts) for each slice of a row (counts.slice says which), with `total` the row's
// totals (what a single-slice blob means). False if the blob is damaged.
template <class F>
bool for_each_slice(std::string_view blob, const counts::TallyEntry& total, F&& f);

// The row's counts summed over the slices `filter` accepts (key and move from `total`, slice
// 0), and the first and last month codes among them (0 when none is known). games == 0 when
// no slice is accepted. False if the blob is damaged.
struct FilteredCounts {
  counts::TallyEntry counts;
  uint32_t first_month = 0;
  uint32_t last_month = 0;
};
bool sum_slices(std::string_view blob, const counts::TallyEntry& total, const SliceFilter& filter,
                FilteredCounts& out);

// The stream the store merges: a tally's (key, move, slice) stream read as one row per
// (key, move), with the totals as the entry and the slices as blob(). A stream out of
// (key, move, slice) order, or with an entry twice, stops with an error.
class SlicedRows final : public counts::EntryStream {
 public:
  explicit SlicedRows(counts::EntryStream& sliced) : sliced_(sliced) {}
  bool next(counts::TallyEntry& total) override;
  Status status() const override { return error_.empty() ? sliced_.status() : Status(Error{error_}); }
  // The slices of the entry next() gave last.
  const std::string& blob() const { return blob_; }

 private:
  counts::EntryStream& sliced_;
  counts::TallyEntry pending_;
  bool has_pending_ = false;
  std::string blob_;
  std::string error_;
};

// Registers merge_slices(old_blob, new_blob, old totals..., new totals...) (the totals' columns
// in counted-field order): the upsert of a row already stored merges its slices with it.
Status register_slice_functions(Connection& db);
// "merge_slices(slices, excluded.slices, white, ..., excluded.white, ...)" for the upsert.
std::string merge_slices_call();

// --- implementation of the template ---

template <class F>
bool for_each_slice(std::string_view blob, const counts::TallyEntry& total, F&& f) {
  const auto* p = reinterpret_cast<const uint8_t*>(blob.data());
  const uint8_t* end = p + blob.size();
  uint64_t value = 0;
  if (!counts::get_varint(p, end, value)) return false;
  if (p == end) {
    counts::TallyEntry one = total;
    one.slice = uint32_t(value);
    f(one);
    return true;
  }
  uint32_t slice = 0;
  for (;;) {
    counts::TallyEntry e;
    e.key = total.key;
    e.move = total.move;
    slice += uint32_t(value);
    e.slice = slice;
    bool ok = true;
#define BOOKFORGE_GET_SLICE_FIELD(name, type, merge, column, one_game, without_slot) \
  ok &= counts::get_varint(p, end, value);                                           \
  e.name = type(value);
    BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_GET_SLICE_FIELD)
#undef BOOKFORGE_GET_SLICE_FIELD
    if (!ok) return false;
    f(e);
    if (p == end) return true;
    if (!counts::get_varint(p, end, value)) return false;
  }
}

}  // namespace bookforge::store
