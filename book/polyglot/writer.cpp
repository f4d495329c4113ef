#include "book/polyglot/writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "book/temp_file.h"

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

Result<PolyglotWriter> PolyglotWriter::create_section(const std::string& dir) {
  Result<int> fd = create_unnamed_file(dir, ".bookforge-section");
  if (!fd) return fd.error();
  return PolyglotWriter("a temporary book section in " + (dir.empty() ? std::string(".") : dir), *fd,
                        std::nullopt);
}

std::string PolyglotWriter::folder() const { return output_ ? output_->folder() : std::string("."); }

Status PolyglotWriter::append(PolyglotWriter& section) {
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  if (section.positions_ == 0) return ok_status();
  if (positions_ > 0 && section.first_key_ <= last_key_)
    return Error{"internal error: book sections must be appended in increasing key order"};
  if (Status s = section.flush(); !s.ok()) return s;
  if (Status s = flush(); !s.ok()) return s;
  // The section's file, from its start, through this writer's buffer.
  const uint64_t bytes = section.entries_ * kPolyglotEntrySize;
  for (uint64_t done = 0; done < bytes;) {
    ssize_t n =
        ::pread(section.fd_, buffer_.data(), std::min<uint64_t>(buffer_.size(), bytes - done), off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"cannot read back a temporary file of " + path_ + ": " + std::strerror(errno)};
    used_ = size_t(n);
    if (Status s = flush(); !s.ok()) return s;
    done += uint64_t(n);
  }
  entries_ += section.entries_;
  positions_ += section.positions_;
  last_key_ = section.last_key_;
  section.entries_ = section.positions_ = 0;
  if (::ftruncate(section.fd_, 0) != 0 || ::lseek(section.fd_, 0, SEEK_SET) != 0)
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

Result<uint64_t> PolyglotWriter::commit() {
  if (!output_) return Error{"internal error: a book section is appended, not committed"};
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  if (Status s = flush(); !s.ok()) return s.error();
  fd_ = -1;
  if (Status s = output_->commit(); !s.ok()) return s.error();
  return entries_;
}

}  // namespace bookforge::book
