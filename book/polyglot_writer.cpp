#include "book/polyglot_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace bookforge::book {
namespace {
constexpr size_t kBufferSize = 1 << 20;
}

Result<PolyglotWriter> PolyglotWriter::create(const std::string& path) {
  std::filesystem::path target(path);
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string temp = dir.string();
  temp.append("/.").append(target.filename().string()).append(".tmp-XXXXXX");
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return Error{"cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno)};
  ::fchmod(fd, 0644);
  return PolyglotWriter(path, temp, fd);
}

PolyglotWriter::PolyglotWriter(std::string path, std::string temp_path, int fd)
    : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), buffer_(kBufferSize) {}

PolyglotWriter::PolyglotWriter(PolyglotWriter&& o) noexcept
    : path_(std::move(o.path_)),
      temp_path_(std::move(o.temp_path_)),
      fd_(o.fd_),
      buffer_(std::move(o.buffer_)),
      used_(o.used_),
      entries_(o.entries_),
      positions_(o.positions_),
      last_key_(o.last_key_) {
  o.fd_ = -1;
  o.temp_path_.clear();
}

PolyglotWriter::~PolyglotWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

Status PolyglotWriter::flush() {
  size_t done = 0;
  while (done < used_) {
    ssize_t n = ::write(fd_, buffer_.data() + done, used_ - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"cannot write " + temp_path_ + ": " + std::strerror(errno)};
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
  ++positions_;
  last_key_ = key;
  return ok_status();
}

Result<uint64_t> PolyglotWriter::commit() {
  if (fd_ < 0) return Error{"the book " + path_ + " was already committed"};
  if (Status s = flush(); !s.ok()) return s.error();
  if (::fsync(fd_) != 0) return Error{"cannot sync " + temp_path_ + ": " + std::strerror(errno)};
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return Error{"cannot write " + temp_path_ + ": " + std::strerror(errno)};
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    return Error{"cannot rename " + temp_path_ + " to " + path_ + ": " + std::strerror(errno)};
  temp_path_.clear();
  return entries_;
}

}  // namespace bookforge::book
