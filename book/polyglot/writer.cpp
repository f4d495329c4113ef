#include "book/polyglot/writer.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "base/temp_file.h"

namespace bookforge::book {
namespace {
constexpr size_t kBufferSize = 256 << 10;
}

Result<PolyglotWriter> PolyglotWriter::create(const std::string& path) {
  Result<OutputFile> output = OutputFile::create(path);
  if (!output) return output.error();
  const int fd = output->fd();
  return PolyglotWriter(path, fd, std::move(*output));
}

Result<PolyglotWriter> PolyglotWriter::create_for_partition(const std::string& dir) {
  Result<int> fd = create_unnamed_file(dir, ".bookforge-partition");
  if (!fd) return fd.error();
  return PolyglotWriter("a temporary book partition in " + (dir.empty() ? std::string(".") : dir), *fd,
                        std::nullopt);
}

std::string PolyglotWriter::folder() const { return output_ ? output_->folder() : std::string("."); }

Status PolyglotWriter::append(PolyglotWriter& partition) {
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  if (partition.positions_ == 0) return ok_status();
  if (positions_ > 0 && partition.first_key_ <= last_key_)
    return Error{"internal error: book partitions must be appended in increasing key order"};
  if (Status s = partition.flush(); !s.ok()) return s;
  if (Status s = flush(); !s.ok()) return s;
  // The partition's file, from its start, through this writer's buffer.
  const uint64_t bytes = partition.entries_ * kPolyglotEntrySize;
  for (uint64_t done = 0; done < bytes;) {
    ssize_t n =
        ::pread(partition.fd_, buffer_.data(), std::min<uint64_t>(buffer_.size(), bytes - done), off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"cannot read back a temporary file of " + path_ + ": " + std::strerror(errno)};
    used_ = size_t(n);
    if (Status s = flush(); !s.ok()) return s;
    done += uint64_t(n);
  }
  entries_ += partition.entries_;
  positions_ += partition.positions_;
  last_key_ = partition.last_key_;
  partition.entries_ = partition.positions_ = 0;
  if (::ftruncate(partition.fd_, 0) != 0 || ::lseek(partition.fd_, 0, SEEK_SET) != 0)
    return Error{"cannot reuse a temporary file of " + path_ + ": " + std::strerror(errno)};
  return ok_status();
}

PolyglotWriter::PolyglotWriter(std::string path, int fd, std::optional<OutputFile> output)
    : path_(std::move(path)), output_(std::move(output)), fd_(fd), buffer_(kBufferSize) {}

PolyglotWriter::PolyglotWriter(PolyglotWriter&& o) noexcept
    : path_(std::move(o.path_)),
      output_(std::move(o.output_)),
      fd_(o.fd_),
      buffer_(std::move(o.buffer_)),
      used_(o.used_),
      entries_(o.entries_),
      positions_(o.positions_),
      first_key_(o.first_key_),
      last_key_(o.last_key_) {
  o.fd_ = -1;
  o.output_.reset();
}

PolyglotWriter::~PolyglotWriter() {
  // The book's descriptor belongs to its OutputFile.
  if (fd_ >= 0 && !output_) ::close(fd_);
}

Status PolyglotWriter::flush() {
  size_t done = 0;
  while (done < used_) {
    ssize_t n = ::write(fd_, buffer_.data() + done, used_ - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"cannot write " + path_ + ": " + std::strerror(errno)};
    done += size_t(n);
  }
  used_ = 0;
  return ok_status();
}

Status PolyglotWriter::add_position(std::span<PolyglotEntry> entries) {
  if (entries.empty()) return ok_status();
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  uint64_t key = entries.front().key;
  if (positions_ > 0 && key <= last_key_)
    return Error{"internal error: book positions must be written in increasing key order"};
  for (const PolyglotEntry& e : entries)
    if (e.key != key) return Error{"internal error: a book position mixes several keys"};
  std::sort(entries.begin(), entries.end(), book_order);
  for (const PolyglotEntry& e : entries) {
    if (used_ + kPolyglotEntrySize > buffer_.size())
      if (Status s = flush(); !s.ok()) return s;
    encode_entry(e, buffer_.data() + used_);
    used_ += kPolyglotEntrySize;
  }
  entries_ += entries.size();
  if (positions_++ == 0) first_key_ = key;
  last_key_ = key;
  return ok_status();
}

bool PolyglotWriter::is_ok() const {
  if (fd_ < 0) return true;  // committed: the file is the OutputFile's now
  const uint64_t buffered = used_ / kPolyglotEntrySize, in_file = entries_ - buffered;
  if (used_ % kPolyglotEntrySize != 0 || buffered > entries_) return false;
  uint64_t seen = 0, positions = 0;
  std::optional<PolyglotEntry> previous;
  auto check = [&](const unsigned char* p) {
    const PolyglotEntry e = decode_entry(p);
    if (previous && (e.key < previous->key || (e.key == previous->key && book_order(e, *previous))))
      return false;
    positions += !previous || e.key != previous->key;
    previous = e;
    ++seen;
    return true;
  };
  std::vector<unsigned char> chunk(kBufferSize);
  for (uint64_t done = 0; done < in_file * kPolyglotEntrySize;) {
    const size_t want = size_t(std::min<uint64_t>(chunk.size(), in_file * kPolyglotEntrySize - done));
    const ssize_t n = ::pread(fd_, chunk.data(), want, off_t(done));
    if (n <= 0 || size_t(n) % kPolyglotEntrySize != 0) return false;
    for (ssize_t i = 0; i < n; i += ssize_t(kPolyglotEntrySize))
      if (!check(chunk.data() + i)) return false;
    done += uint64_t(n);
  }
  for (size_t i = 0; i < used_; i += kPolyglotEntrySize)
    if (!check(buffer_.data() + i)) return false;
  return seen == entries_ && positions == positions_;
}

Result<uint64_t> PolyglotWriter::commit() {
  if (!output_) return Error{"internal error: a book partition is appended, not committed"};
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  assert(is_ok());
  if (Status s = flush(); !s.ok()) return s.error();
  fd_ = -1;
  if (Status s = output_->commit(); !s.ok()) return s.error();
  return entries_;
}

}  // namespace bookforge::book
