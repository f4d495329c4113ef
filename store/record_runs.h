// Byte records sorted on disk in bounded memory: what `db add` holds of its games (their
// records, and the top and recent games of their positions) beside the tally, within its share
// of --memory however many games are read.
//
// Each record has a sort key of two signed 64-bit numbers (major, minor) and a few bytes. A
// RecordRuns (one per reading worker: it is not shared between threads) holds records in
// memory until they reach its limit, then sorts them and appends them as one run to its spill
// file (counts/spill_file.h: no name, gone with its descriptor). A RecordMerge reads every
// run and every record still in memory of several RecordRuns back as one stream in
// (major, minor) order. A run stores each record as
//
//   i64 major, i64 minor (little-endian), varint length, the bytes
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "counts/spill_file.h"

namespace bookforge::store {

class RecordRuns {
 public:
  // Spills into a file in `tmp_dir` once the records held take `memory` bytes.
  RecordRuns(std::string tmp_dir, size_t memory);
  RecordRuns(RecordRuns&&) noexcept;
  ~RecordRuns();

  // Any order; equal keys come back in the order they were added. An error if a spill fails.
  Status add(int64_t major, int64_t minor, std::string_view bytes);
  // Writes the records held as a run now (nothing if none).
  Status spill();

  uint64_t records() const { return records_; }
  uint64_t runs() const { return runs_.size(); }

 private:
  friend class RecordMerge;
  struct Held {
    int64_t major, minor;
    uint32_t offset, size;  // in bytes_
  };
  struct Run {
    uint64_t offset, bytes;
  };
  void sort_held();

  std::string tmp_dir_;
  size_t memory_;
  std::vector<Held> held_;
  std::string bytes_;
  std::shared_ptr<counts::SpillFile> file_;
  std::vector<Run> runs_;
  uint64_t records_ = 0;
};

class RecordMerge {
 public:
  // Reads `sources` (left as they are but for their held records, which are sorted) in order;
  // they must outlive the merge. The runs' read buffers share `memory` (4 to 64 KiB each).
  RecordMerge(const std::vector<RecordRuns*>& sources, size_t memory);
  RecordMerge(RecordMerge&&) noexcept;
  ~RecordMerge();

  // Moves to the next record: false at the end or on an error (then status() says which).
  bool next();
  int64_t major() const { return major_; }
  int64_t minor() const { return minor_; }
  std::string_view bytes() const { return bytes_; }
  Status status() const;

 private:
  class Cursor;
  static bool after(const Cursor* a, const Cursor* b);
  bool advance(Cursor& cursor);

  std::vector<std::unique_ptr<Cursor>> cursors_;
  std::vector<Cursor*> heap_;  // cursors with a record, smallest (major, minor) first
  bool started_ = false;
  int64_t major_ = 0, minor_ = 0;
  std::string_view bytes_;
  std::string error_;
};

}  // namespace bookforge::store
