// Sorted runs of tally entries spilled to disk when the tables reach the memory budget.
//
// A run lives in a temporary file that is unlinked as soon as it is created: it has no name,
// so it disappears when its descriptor is closed, whether the build succeeds, fails or is
// killed. Entries are stored in (key, move) order, each as
//
//   varint  key - previous key (0 for another move of the same position)
//   u16     move (little-endian)
//   varint  first_ply, white_wins, draws, black_wins, games without a result, rated_games,
//           rating_sum
//
// (varint: 7 bits per byte, low bits first, high bit set on all but the last byte). A sorted
// key delta takes about 64 - log2(entries) bits and most counts fit one byte, so an entry
// takes about 16 bytes instead of the 40 of a TallyEntry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "book/tally_entry.h"
#include "engine/result.h"

namespace bookforge::book {

// An unlinked temporary file (see above), closed when the last owner goes away. Runs are
// appended one after another, so a worker needs one file (one descriptor) however often it
// spills.
class TempFile {
 public:
  static Result<std::shared_ptr<TempFile>> create(const std::string& dir);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& dir() const { return dir_; }

 private:
  friend class RunWriter;
  TempFile(int fd, std::string dir) : fd_(fd), dir_(std::move(dir)) {}
  int fd_;
  std::string dir_;
  uint64_t end_ = 0;  // where the next run goes
};

struct SpilledRun {
  std::shared_ptr<TempFile> file;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t entries = 0;
};

// Appends one run to a file. Entries must come in strictly increasing (key, move) order. One
// writer at a time per file.
class RunWriter {
 public:
  explicit RunWriter(std::shared_ptr<TempFile> file);
  void add(const TallyEntry& entry);
  // Flushes and hands over the run; the first write error, if any.
  Result<SpilledRun> finish();

 private:
  void flush();

  std::shared_ptr<TempFile> file_;
  std::unique_ptr<uint8_t[]> buffer_;  // not zeroed: a tiny budget spills often
  size_t used_ = 0;
  uint64_t offset_ = 0;
  uint64_t bytes_ = 0;
  uint64_t entries_ = 0;
  uint64_t previous_key_ = 0;
  std::string error_;
};

// Reads a run back from the start, through its own buffer (several readers can share a file).
class RunReader : public EntryStream {
 public:
  RunReader(SpilledRun run, size_t buffer_size);
  bool next(TallyEntry& entry) override;
  Status status() const override;

 private:
  bool fill();

  SpilledRun run_;
  std::vector<uint8_t> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t consumed_ = 0;  // bytes of the run read into the buffer so far
  uint64_t entries_read_ = 0;
  uint64_t previous_key_ = 0;
  std::string error_;
};

}  // namespace bookforge::book
