// Writes a Polyglot book: entries in book order (book/polyglot/format.h) into an OutputFile
// (base/output_file.h), put in place by commit(). A writer destroyed without commit() leaves
// nothing, so a failed or interrupted build never leaves a half-written book.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/output_file.h"
#include "base/result.h"
#include "book/polyglot/format.h"

namespace bookforge::book {

class PolyglotWriter {
 public:
  static Result<PolyglotWriter> create(const std::string& path);
  // A writer for a later partition of a book (counts/tally.h), filled on another thread
  // while the book's own writer takes the earlier ones, then moved into it with append(). Its file in `dir`
  // has no name, so it never shows and disappears with the writer.
  static Result<PolyglotWriter> create_for_partition(const std::string& dir);
  ~PolyglotWriter();
  PolyglotWriter(PolyglotWriter&& other) noexcept;
  PolyglotWriter& operator=(PolyglotWriter&&) = delete;
  PolyglotWriter(const PolyglotWriter&) = delete;

  // Sorts one position's entries (all with the same key, greater than every key added before)
  // into book order and appends them.
  Status add_position(std::span<PolyglotEntry> entries);

  // Appends everything written to `partition` (whose first key must be greater than every key
  // written here), which is then empty.
  Status append(PolyglotWriter& partition);

  // Flushes, syncs and puts the file in place. Returns the number of entries written.
  Result<uint64_t> commit();

  // The folder the book is written to (that of a symlink's target).
  std::string folder() const;

  uint64_t entries() const { return entries_; }
  uint64_t positions() const { return positions_; }

  // The invariant every Polyglot reader relies on: entries sorted by key, each position's
  // entries together and in book order (book_order), and as many entries and positions as
  // counted. Reads back everything written so far (the file and the buffer): for assertions
  // in debug builds and for tests.
  bool is_ok() const;

 private:
  PolyglotWriter(std::string path, int fd, std::optional<OutputFile> output);
  Status flush();

  std::string path_;                  // the book, or a partition's description
  std::optional<OutputFile> output_;  // the book's file; none for a partition
  int fd_ = -1;                       // output_'s descriptor, or the partition's own
  std::vector<unsigned char> buffer_;
  size_t used_ = 0;
  uint64_t entries_ = 0;
  uint64_t positions_ = 0;
  uint64_t first_key_ = 0;
  uint64_t last_key_ = 0;
};

}  // namespace bookforge::book
