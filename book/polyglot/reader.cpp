#include "book/polyglot/reader.h"
#include "base/hex.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace bookforge::book {
namespace {

// What a path that is not a regular file is, for the message that refuses it.
std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "is a folder";
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is not a regular file";
}

}  // namespace

Result<PolyglotBook> PolyglotBook::open(const std::string& path) {
  // Only a regular file is a book. Checked before opening: opening a FIFO for reading waits for
  // a writer (forever, for a book command or the engine's BookFile), and a device such as
  // /dev/zero or /dev/null would pass for an empty book.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error{"cannot open book " + path + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{path + ": " + file_kind(st.st_mode) + ", not a Polyglot book"};
  // O_NONBLOCK: should the path be swapped for a FIFO after the check, open still returns at once
  // and the fstat below refuses it.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Error{"cannot open book " + path + ": " + std::strerror(errno)};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Error{"cannot read book " + path + ": " + std::strerror(err)};
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error{path + ": " + file_kind(st.st_mode) + ", not a Polyglot book"};
  }
  PolyglotBook book;
  book.path_ = path;
  size_t bytes = size_t(st.st_size);
  if (bytes % kPolyglotEntrySize != 0) {
    ::close(fd);
    return Error{path + ": size " + std::to_string(bytes) +
                 " bytes is not a multiple of 16, so not a Polyglot book (truncated?)"};
  }
  if (bytes > 0) {
    void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return Error{"cannot map book " + path + ": " + std::strerror(err)};
    }
    book.mapping_ = map;
    book.mapping_size_ = bytes;
    book.data_ = static_cast<const unsigned char*>(map);
    book.size_ = bytes / kPolyglotEntrySize;
  }
  ::close(fd);  // the mapping stays valid
  return validated(std::move(book));
}

Result<PolyglotBook> PolyglotBook::from_entries(const std::vector<PolyglotEntry>& entries,
                                                const std::string& name) {
  std::vector<unsigned char> raw(entries.size() * kPolyglotEntrySize);
  for (size_t i = 0; i < entries.size(); ++i) encode_entry(entries[i], raw.data() + i * kPolyglotEntrySize);
  return from_bytes(std::move(raw), name);
}

Result<PolyglotBook> PolyglotBook::from_bytes(std::vector<unsigned char> bytes, const std::string& name) {
  PolyglotBook book;
  book.path_ = name;
  if (bytes.size() % kPolyglotEntrySize != 0)
    return Error{name + ": size " + std::to_string(bytes.size()) +
                 " bytes is not a multiple of 16, so not a Polyglot book (truncated?)"};
  book.owned_ = std::move(bytes);
  book.data_ = book.owned_.data();
  book.size_ = book.owned_.size() / kPolyglotEntrySize;
  return validated(std::move(book));
}

Result<PolyglotBook> PolyglotBook::validated(PolyglotBook book) {
  for (size_t i = 1; i < book.size_; ++i) {
    uint64_t previous = book.key_at(i - 1), key = book.key_at(i);
    if (key < previous)
      return Error{book.path_ + ": entry " + std::to_string(i) + " (byte " +
                   std::to_string(i * kPolyglotEntrySize) + ") has key " + hex64(key) +
                   ", smaller than the key " + hex64(previous) +
                   " before it; a Polyglot book is sorted by key"};
  }
  return book;
}

PolyglotBook::PolyglotBook(PolyglotBook&& o) noexcept { *this = std::move(o); }

PolyglotBook& PolyglotBook::operator=(PolyglotBook&& o) noexcept {
  if (this == &o) return *this;
  release();
  path_ = std::move(o.path_);
  owned_ = std::move(o.owned_);
  mapping_ = o.mapping_;
  mapping_size_ = o.mapping_size_;
  size_ = o.size_;
  // A moved vector keeps its buffer, so data_ stays valid for an owned book too.
  data_ = o.data_;
  o.mapping_ = nullptr;
  o.mapping_size_ = 0;
  o.data_ = nullptr;
  o.size_ = 0;
  return *this;
}

PolyglotBook::~PolyglotBook() { release(); }

void PolyglotBook::release() {
  if (mapping_) ::munmap(mapping_, mapping_size_);
  mapping_ = nullptr;
  data_ = nullptr;
  size_ = 0;
}

size_t PolyglotBook::lower_bound(uint64_t key) const {
  if (size_ == 0) return 0;
  // Invariant: key_at(lo) = first < key <= last = key_at(hi), so the answer is in (lo, hi].
  size_t lo = 0, hi = size_ - 1;
  uint64_t first = key_at(lo), last = key_at(hi);
  if (key <= first) return 0;
  if (key > last) return size_;
  constexpr int kInterpolationSteps = 8;
  for (int step = 0; hi - lo > 16; ++step) {
    size_t probe;
    if (step < kInterpolationSteps) {
      probe = lo + size_t((static_cast<unsigned __int128>(key - first) * (hi - lo)) / (last - first));
      probe = std::clamp(probe, lo + 1, hi - 1);
    } else {
      probe = lo + (hi - lo) / 2;  // skewed keys: binary search from here on
    }
    uint64_t at = key_at(probe);
    if (at < key)
      lo = probe, first = at;
    else
      hi = probe, last = at;
  }
  while (key_at(lo) < key) ++lo;  // stops at hi at the latest
  return lo;
}

std::pair<size_t, size_t> PolyglotBook::range(uint64_t key) const {
  size_t first = lower_bound(key);
  size_t last = first;
  while (last < size_ && key_at(last) == key) ++last;
  return {first, last};
}

std::vector<PolyglotEntry> PolyglotBook::find(uint64_t key) const {
  auto [first, last] = range(key);
  std::vector<PolyglotEntry> entries;
  entries.reserve(last - first);
  for (size_t i = first; i < last; ++i) entries.push_back(entry(i));
  return entries;
}

}  // namespace bookforge::book
