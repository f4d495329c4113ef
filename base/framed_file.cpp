#include "base/framed_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/little_endian.h"

namespace bookforge {
namespace {

constexpr size_t kPrefixBytes = 16;   // magic, version, header length
constexpr size_t kTrailerBytes = 24;  // item count, end magic, checksum
constexpr size_t kBuffer = 256 << 10;
constexpr uint32_t kMaxHeaderBytes = 64 << 20;

std::span<const unsigned char> bytes_of(const void* data, size_t size) {
  return {static_cast<const unsigned char*>(data), size};
}

// Reads all of [data, data + size) at `offset` of `fd`; false on an error or a short file.
bool read_at(int fd, void* data, size_t size, uint64_t offset) {
  char* out = static_cast<char*>(data);
  for (size_t done = 0; done < size;) {
    ssize_t n = ::pread(fd, out + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

}  // namespace

std::string header_line(std::string_view name, std::string_view value) {
  std::string out(name);
  out.push_back(' ');
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out.push_back(c);
  }
  out.push_back('\n');
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> header_lines(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> lines;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return Error{"unterminated line"};
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol + 1);
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) return Error{"line without a value"};
    std::string value;
    for (size_t i = space + 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        value.push_back(line[i] == 'n' ? '\n' : line[i]);
      } else {
        value.push_back(line[i]);
      }
    }
    lines.emplace_back(std::string(line.substr(0, space)), std::move(value));
  }
  return lines;
}

// --- writer ---

FramedWriter::FramedWriter(OutputFile file) : file_(std::move(file)), buffer_(kBuffer) {}

Result<FramedWriter> FramedWriter::create(const std::string& path, const FrameKind& kind,
                                          std::string_view header) {
  Result<OutputFile> file = OutputFile::create(path);
  if (!file) return file.error();
  FramedWriter writer(std::move(*file));
  std::memcpy(writer.end_magic_, kind.end_magic, sizeof writer.end_magic_);
  std::string prefix(kind.magic, sizeof kind.magic);
  append_le(prefix, kind.version, 4);
  append_le(prefix, uint32_t(header.size()), 4);
  writer.put(prefix.data(), prefix.size());
  writer.put(header.data(), header.size());
  return writer;
}

void FramedWriter::put(const void* data, size_t size) {
  if (used_ + size > buffer_.size()) flush();
  if (size > buffer_.size()) {
    hasher_.update(bytes_of(data, size));
    if (error_.ok()) error_ = file_.write(data, size);
    bytes_ += size;
    return;
  }
  std::memcpy(buffer_.data() + used_, data, size);
  used_ += size;
}

void FramedWriter::flush() {
  hasher_.update(bytes_of(buffer_.data(), used_));
  if (error_.ok()) error_ = file_.write(buffer_.data(), used_);
  bytes_ += used_;
  used_ = 0;
}

uint8_t* FramedWriter::reserve(size_t size) {
  if (used_ + size > buffer_.size()) flush();
  return buffer_.data() + used_;
}

void FramedWriter::put_item(const void* data, size_t size) {
  put(data, size);
  ++items_;
}

Result<uint64_t> FramedWriter::commit() {
  std::string trailer;
  append_le(trailer, items_, 8);
  trailer.append(end_magic_, sizeof end_magic_);
  put(trailer.data(), trailer.size());
  flush();
  std::string checksum;
  append_le(checksum, hasher_.digest(), 8);
  if (error_.ok()) error_ = file_.write(checksum.data(), checksum.size());
  if (!error_.ok()) return error_.error();
  if (Status s = file_.commit(); !s.ok()) return s.error();
  return bytes_ + checksum.size();
}

// --- reader ---

Result<FramedReader> FramedReader::open(const std::string& path, const FrameKind& kind) {
  FramedReader reader(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  reader.fd_ = fd;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  const auto damaged = [&](const std::string& why) {
    return Error{path + ": not a complete " + kind.name + " file: " + why};
  };
  char prefix[kPrefixBytes];
  if (size < off_t(kPrefixBytes + kTrailerBytes) || !read_at(fd, prefix, sizeof prefix, 0))
    return damaged("too short");
  if (std::memcmp(prefix, kind.magic, sizeof kind.magic) != 0)
    return damaged(std::string("no ") + kind.name + " magic");
  const uint64_t version = load_le(prefix + 8, 4);
  if (version != kind.version)
    return Error{path + ": " + kind.name + " format version " + std::to_string(version) +
                 ", this bookforge reads " + std::to_string(kind.version)};
  const uint64_t header_bytes = load_le(prefix + 12, 4);
  if (header_bytes > kMaxHeaderBytes || kPrefixBytes + header_bytes + kTrailerBytes > uint64_t(size))
    return damaged("too short for its header");
  reader.header_.resize(header_bytes);
  reader.trailer_.resize(kTrailerBytes);
  if (!read_at(fd, reader.header_.data(), reader.header_.size(), kPrefixBytes) ||
      !read_at(fd, reader.trailer_.data(), kTrailerBytes, uint64_t(size) - kTrailerBytes))
    return Error{path + ": cannot read: " + std::strerror(errno)};
  if (std::memcmp(reader.trailer_.data() + 8, kind.end_magic, sizeof kind.end_magic) != 0)
    return damaged("cut short (no end mark)");
  reader.prefix_.assign(prefix, sizeof prefix);
  reader.prefix_ += reader.header_;
  reader.items_begin_ = kPrefixBytes + header_bytes;
  reader.items_end_ = uint64_t(size) - kTrailerBytes;
  reader.items_ = load_le(reader.trailer_.data(), 8);
  reader.checksum_ = load_le(reader.trailer_.data() + 16, 8);
  reader.close_file();  // opened again when the items are first asked for
  return reader;
}

FramedReader::FramedReader(FramedReader&& other) noexcept { *this = std::move(other); }

FramedReader& FramedReader::operator=(FramedReader&& other) noexcept {
  if (this == &other) return *this;
  close_file();
  path_ = std::move(other.path_);
  header_ = std::move(other.header_);
  fd_ = std::exchange(other.fd_, -1);
  items_begin_ = other.items_begin_;
  items_end_ = other.items_end_;
  items_ = other.items_;
  checksum_ = other.checksum_;
  prefix_ = std::move(other.prefix_);
  trailer_ = std::move(other.trailer_);
  hasher_ = other.hasher_;
  buffer_ = std::move(other.buffer_);
  pos_ = other.pos_;
  end_ = other.end_;
  consumed_ = other.consumed_;
  read_ = other.read_;
  started_ = other.started_;
  done_ = other.done_;
  status_ = other.status_;
  return *this;
}

FramedReader::~FramedReader() { close_file(); }

void FramedReader::close_file() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void FramedReader::fail(const std::string& why) {
  if (status_.ok()) status_ = Error{path_ + ": " + why};
  done_ = true;
  close_file();
}

bool FramedReader::fill(size_t want) {
  if (done_) return false;
  if (!started_) {
    started_ = true;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      fail(std::string("cannot open: ") + std::strerror(errno));
      return false;
    }
    buffer_.resize(kBuffer);
    hasher_.update(bytes_of(prefix_.data(), prefix_.size()));
  }
  if (end_ - pos_ >= want) return true;
  std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  if (want > buffer_.size()) buffer_.resize(want);  // one long item
  const uint64_t total = items_end_ - items_begin_;
  const size_t n = size_t(std::min<uint64_t>(buffer_.size() - end_, total - consumed_));
  if (n == 0) return true;
  errno = 0;
  if (!read_at(fd_, buffer_.data() + end_, n, items_begin_ + consumed_)) {
    fail(std::string("cannot read: ") + (errno ? std::strerror(errno) : "file shorter than before"));
    return false;
  }
  hasher_.update(bytes_of(buffer_.data() + end_, n));
  end_ += n;
  consumed_ += n;
  return true;
}

bool FramedReader::finish() {
  if (done_) return status_.ok();
  hasher_.update(bytes_of(trailer_.data(), 16));
  if (!at_end())
    fail("damaged: bytes after the last item");
  else if (read_ != items_)
    fail("damaged: " + std::to_string(read_) + " entries, the trailer says " + std::to_string(items_));
  else if (hasher_.digest() != checksum_)
    fail("damaged: the checksum does not match");
  done_ = true;
  close_file();
  return status_.ok();
}

}  // namespace bookforge
