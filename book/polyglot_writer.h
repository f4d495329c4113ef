// Writes a Polyglot book: entries in book order (book/polyglot.h) into a temporary file in the
// target folder, renamed into place by commit(). A writer destroyed without commit() removes
// its temporary file, so a failed or interrupted build never leaves a half-written book.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "book/polyglot.h"
#include "engine/result.h"

namespace bookforge::book {

class PolyglotWriter {
 public:
  static Result<PolyglotWriter> create(const std::string& path);
  ~PolyglotWriter();
  PolyglotWriter(PolyglotWriter&& other) noexcept;
  PolyglotWriter& operator=(PolyglotWriter&&) = delete;
  PolyglotWriter(const PolyglotWriter&) = delete;

  // Sorts one position's entries (all with the same key, greater than every key added before)
  // into book order and appends them.
  Status add_position(std::span<PolyglotEntry> entries);

  // Flushes, syncs and renames the file into place. Returns the number of entries written.
  Result<uint64_t> commit();

  uint64_t entries() const { return entries_; }
  uint64_t positions() const { return positions_; }

 private:
  PolyglotWriter(std::string path, std::string temp_path, int fd);
  Status flush();

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  std::vector<unsigned char> buffer_;
  size_t used_ = 0;
  uint64_t entries_ = 0;
  uint64_t positions_ = 0;
  uint64_t last_key_ = 0;
};

}  // namespace bookforge::book
