// Reads Polyglot books: the file is memory-mapped and validated once (size a multiple of 16,
// keys in ascending order), then searched on its sorted keys. Any file, however damaged, gives
// either a book or an error that says what is wrong with it, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "book/polyglot/format.h"

namespace bookforge::book {

class PolyglotBook {
 public:
  static Result<PolyglotBook> open(const std::string& path);
  // A book held in memory (tests and fuzzing); validated like a file. `name` is for messages.
  static Result<PolyglotBook> from_bytes(std::vector<unsigned char> bytes, const std::string& name);
  // A book of these entries (in book order, as a conversion from another format makes them).
  static Result<PolyglotBook> from_entries(const std::vector<PolyglotEntry>& entries,
                                           const std::string& name);

  PolyglotBook(PolyglotBook&& other) noexcept;
  PolyglotBook& operator=(PolyglotBook&& other) noexcept;
  PolyglotBook(const PolyglotBook&) = delete;
  PolyglotBook& operator=(const PolyglotBook&) = delete;
  ~PolyglotBook();

  const std::string& path() const { return path_; }
  size_t size() const { return size_; }  // entries
  uint64_t file_size() const { return uint64_t(size_) * kPolyglotEntrySize; }

  uint64_t key_at(size_t i) const { return load_be64(data_ + i * kPolyglotEntrySize); }
  PolyglotEntry entry(size_t i) const { return decode_entry(data_ + i * kPolyglotEntrySize); }

  // The index of the first entry whose key is not less than `key` (size() if none).
  // Interpolation search: Zobrist keys are uniform, so guessing the position from the key's
  // value between the two bounds needs about log2(log2(n)) probes, each one cache miss, where a
  // binary search needs log2(n). After 8 guesses without converging (keys that are not
  // uniform), the remaining range is searched by halving, so the worst case stays logarithmic.
  size_t lower_bound(uint64_t key) const;
  // The entries [first, last) with this key.
  std::pair<size_t, size_t> range(uint64_t key) const;
  // This key's entries, in file order.
  std::vector<PolyglotEntry> find(uint64_t key) const;

 private:
  PolyglotBook() = default;
  static Result<PolyglotBook> validated(PolyglotBook book);
  void release();

  std::string path_;
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;  // the mmap'ed file, or nullptr
  size_t mapping_size_ = 0;
  std::vector<unsigned char> owned_;  // the bytes of a book from from_bytes()
};

}  // namespace bookforge::book
