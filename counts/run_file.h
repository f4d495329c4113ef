// Sorted runs of tally entries spilled to disk when the tables reach the memory budget.
//
// A partition's runs are appended to its spill file (counts/spill_file.h), which has no
// name and disappears with its descriptor. Entries are stored in (key, move, slice) order,
// each as a varint record (counts/run_record.h: the key's delta, the move, the slice, the
// counted fields; varint: 7 bits per byte, low bits first, high bit set on all but the last
// byte). A sorted key delta takes about 64 - log2(entries) bits and most counts fit one byte,
// so an entry takes about 20 bytes instead of the 56 of a TallyEntry.
//
// A spilled table of narrow slots (counts/slots.h) is written as it is instead: its used slots,
// byte for byte, in the table's order. A 16-byte SmallSlot is as small as its varint record,
// and copying it costs nothing to write or to read back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/entry.h"
#include "counts/slots.h"
#include "counts/spill_file.h"

namespace bookforge::counts {

// How a run's entries are stored: varint records, or raw slots of a compact table.
enum class RunFormat : uint8_t { kVarint, kSmallSlots, kCompactSlots, kStoreSlots };

struct SpilledRun {
  std::shared_ptr<SpillFile> file;
  RunFormat format = RunFormat::kVarint;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t entries = 0;
};

// Appends one run to a file. Entries must come in strictly increasing (key, move) order. One
// writer at a time per file.
class RunWriter {
 public:
  explicit RunWriter(std::shared_ptr<SpillFile> file);
  void add(const TallyEntry& entry);
  // Flushes and hands over the run; the first write error, if any.
  Result<SpilledRun> finish();

 private:
  void flush();

  std::shared_ptr<SpillFile> file_;
  std::unique_ptr<uint8_t[]> buffer_;  // not zeroed: a tiny budget spills often
  size_t used_ = 0;
  uint64_t offset_ = 0;
  uint64_t bytes_ = 0;
  uint64_t entries_ = 0;
  uint64_t previous_key_ = 0;
  std::string error_;
};

// Appends the used slots of a compact table (in its order: sorted, each (key, move) once) to
// `file` as one run; the slots with move 0 are empty and left out. Every slot of [begin, end)
// is left empty (move 0): a spilled table, ready to be counted into again.
Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, SmallSlot* begin, SmallSlot* end);
Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, CompactSlot* begin, CompactSlot* end);
Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, StoreSlot* begin, StoreSlot* end);

// Reads a run back from the start, through its own buffer (several readers can share a file).
class RunReader : public EntryStream {
 public:
  RunReader(SpilledRun run, size_t buffer_size);
  bool next(TallyEntry& entry) override;
  size_t next_batch(TallyEntry* out, size_t max) override;
  Status status() const override;

 private:
  bool fill();
  bool next_varint(TallyEntry& entry);
  template <class Slot>
  size_t next_slots(TallyEntry* out, size_t max);

  SpilledRun run_;
  std::vector<uint8_t> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t consumed_ = 0;  // bytes of the run read into the buffer so far
  uint64_t entries_read_ = 0;
  uint64_t previous_key_ = 0;
  std::string error_;
};

}  // namespace bookforge::counts
