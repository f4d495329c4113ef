#include "pgn/source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <cerrno>
#include <cstring>
#include <ios>
#include <optional>
#include <vector>

#include "pgn/gzip_filter.h"
#include "pgn/wide_text.h"
#include "pgn/zstd_filter.h"

namespace bookforge::pgn {

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "plain";
    case Compression::kGzip:
      return "gzip";
    case Compression::kBzip2:
      return "bzip2";
    case Compression::kXz:
      return "xz";
    case Compression::kZstd:
      return "zstd";
  }
  return "?";
}

Compression detect_compression(std::string_view head) {
  auto starts = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  if (starts("\x1f\x8b")) return Compression::kGzip;
  if (starts("BZh")) return Compression::kBzip2;
  if (starts(std::string_view("\xfd"
                              "7zXZ\0",
                              6)))
    return Compression::kXz;
  if (starts("\x28\xb5\x2f\xfd")) return Compression::kZstd;
  // A zstd skippable frame (magic 0x184D2A50 to 0x184D2A5F, little-endian), which pzstd puts
  // first; the decoder passes over it.
  if (head.size() >= 4 && (static_cast<unsigned char>(head[0]) & 0xF0) == 0x50 &&
      head.substr(1, 3) == "\x2a\x4d\x18")
    return Compression::kZstd;
  return Compression::kNone;
}

namespace {

namespace io = boost::iostreams;

constexpr size_t kMagicBytes = 6;

// Bytes read ahead to look at (magic bytes, the start of the text), served again before any
// other read.
class ReadAhead {
 public:
  // Reads up to `size` bytes with read(char*, size_t) -> Result<size_t>, fewer only at the end.
  template <class Read>
  Status fill(size_t size, Read read) {
    bytes_.resize(size);
    size_t got = 0;
    while (got < size) {
      Result<size_t> n = read(bytes_.data() + got, size - got);
      if (!n) return n.error();
      if (*n == 0) break;
      got += *n;
    }
    bytes_.resize(got);
    return ok_status();
  }
  std::string_view bytes() const { return {bytes_.data(), bytes_.size()}; }

  // Copies the next bytes not yet served; 0 once all were.
  size_t serve(char* out, size_t size) {
    const size_t n = std::min(size, bytes_.size() - served_);
    std::memcpy(out, bytes_.data() + served_, n);
    served_ += n;
    return n;
  }

 private:
  std::vector<char> bytes_;
  size_t served_ = 0;
};

// The raw bytes of the input: the few bytes read ahead to recognise the compression are
// served again first, then the descriptor. Counts every byte handed out.
class RawInput {
 public:
  RawInput(int fd, bool owns_fd, std::string name) : fd_(fd), owns_fd_(owns_fd), name_(std::move(name)) {}
  ~RawInput() {
    if (owns_fd_) ::close(fd_);
  }
  RawInput(const RawInput&) = delete;
  RawInput& operator=(const RawInput&) = delete;

  // Reads the magic bytes ahead; they stay queued for the first reads.
  Status prime() {
    return head_.fill(kMagicBytes, [this](char* out, size_t size) { return read_fd(out, size); });
  }
  std::string_view head() const { return head_.bytes(); }

  // Reads at least one byte unless at the end.
  Result<size_t> read(char* out, size_t size) {
    if (size_t n = head_.serve(out, size); n > 0) {
      consumed_ += n;
      return n;
    }
    Result<size_t> n = read_fd(out, size);
    if (n) consumed_ += *n;
    return n;
  }

  uint64_t consumed() const { return consumed_; }
  const std::string& name() const { return name_; }

 private:
  Result<size_t> read_fd(char* out, size_t size) {
    for (;;) {
      ssize_t n = ::read(fd_, out, size);
      if (n >= 0) return size_t(n);
      if (errno == EINTR) continue;
      return Error{name_ + ": read error at byte " + std::to_string(consumed_) + ": " + std::strerror(errno)};
    }
  }

  int fd_;
  bool owns_fd_;
  std::string name_;
  ReadAhead head_;
  uint64_t consumed_ = 0;
};

// Thrown through the Boost chain when the descriptor fails; carries our message.
struct RawReadFailure : std::ios_base::failure {
  explicit RawReadFailure(const std::string& message) : std::ios_base::failure(message) {}
};

// Boost.Iostreams source device over a RawInput (devices are copied, so it holds a pointer).
class RawDevice {
 public:
  using char_type = char;
  using category = io::source_tag;
  explicit RawDevice(RawInput* input) : input_(input) {}
  std::streamsize read(char* s, std::streamsize n) {
    Result<size_t> got = input_->read(s, size_t(n));
    if (!got) throw RawReadFailure(got.error().message);
    return *got == 0 ? -1 : std::streamsize(*got);
  }

 private:
  RawInput* input_;
};

// A Boost.Iostreams decompressing filter read straight into the caller's buffer: without a
// filtering_streambuf in between, decompressed bytes are written once, where they are needed.
class Decoder {
 public:
  virtual ~Decoder() = default;
  // Up to n bytes, -1 at the end; throws on corrupt data.
  virtual std::streamsize read(char* s, std::streamsize n) = 0;
};

template <class Filter>
class FilterDecoder final : public Decoder {
 public:
  FilterDecoder(Filter filter, RawInput* input) : filter_(std::move(filter)), device_(input) {}
  std::streamsize read(char* s, std::streamsize n) override { return filter_.read(device_, s, n); }

 private:
  Filter filter_;
  RawDevice device_;
};

// Compressed bytes are read from the file in pieces of this size.
constexpr std::streamsize kInputBuffer = 1 << 16;

// Boost's bzip2 decompressor goes on with a following stream, and the xz one too; our gzip
// and zstd filters read every member and frame (see gzip_filter.h, zstd_filter.h).
std::unique_ptr<Decoder> make_decoder(Compression compression, RawInput* input) {
  switch (compression) {
    case Compression::kNone:
      return nullptr;
    case Compression::kGzip:
      return std::make_unique<FilterDecoder<GzipDecompressor>>(GzipDecompressor(), input);
    case Compression::kBzip2:
      return std::make_unique<FilterDecoder<io::bzip2_decompressor>>(
          io::bzip2_decompressor(false, kInputBuffer), input);
    case Compression::kXz:
      return std::make_unique<FilterDecoder<io::lzma_decompressor>>(
          io::lzma_decompressor(io::lzma_params(), kInputBuffer), input);
    case Compression::kZstd:
      return std::make_unique<FilterDecoder<ZstdDecompressor>>(ZstdDecompressor(), input);
  }
  return nullptr;
}

class FileSource final : public ByteSource {
 public:
  FileSource(std::unique_ptr<RawInput> raw, Compression compression, uint64_t total)
      : raw_(std::move(raw)),
        compression_(compression),
        total_(total),
        decoder_(make_decoder(compression, raw_.get())) {}

  // Reads the start of the text ahead; it stays queued for the first reads.
  Status prime() {
    return text_head_.fill(kWideTextProbe,
                           [this](char* out, size_t size) { return read_decoded(out, size); });
  }
  std::string_view text_head() const { return text_head_.bytes(); }
  Compression compression() const { return compression_; }

  Result<size_t> read(char* buffer, size_t size) override {
    const size_t served = text_head_.serve(buffer, size);
    if (served == size) return served;
    Result<size_t> more = read_decoded(buffer + served, size - served);
    if (!more) return more.error();
    return served + *more;
  }

  uint64_t bytes_consumed() const override { return raw_->consumed(); }
  uint64_t total_bytes() const override { return total_; }
  const std::string& name() const override { return raw_->name(); }

 private:
  Result<size_t> read_decoded(char* buffer, size_t size) {
    if (!decoder_) return read_plain(buffer, size);
    size_t done = 0;
    try {
      while (done < size && !finished_) {
        std::streamsize n = decoder_->read(buffer + done, std::streamsize(size - done));
        if (n < 0) finished_ = true;
        if (n > 0) done += size_t(n);
      }
    } catch (const RawReadFailure& e) {
      return Error{e.what()};
    } catch (const std::exception& e) {
      return Error{raw_->name() + ": corrupt " + std::string(compression_name(compression_)) +
                   " data (detected at byte " + std::to_string(raw_->consumed()) +
                   " of the compressed input): " + e.what()};
    }
    return done;
  }

  Result<size_t> read_plain(char* buffer, size_t size) {
    size_t done = 0;
    while (done < size) {
      Result<size_t> n = raw_->read(buffer + done, size - done);
      if (!n) return n.error();
      if (*n == 0) break;
      done += *n;
    }
    return done;
  }

  std::unique_ptr<RawInput> raw_;
  Compression compression_;
  uint64_t total_;
  std::unique_ptr<Decoder> decoder_;
  bool finished_ = false;
  ReadAhead text_head_;
};

// UTF-16 or UTF-32 text, which the reader would take for one long empty game (pgn/wide_text.h):
// an error naming the input and its encoding, and how to convert it.
std::optional<Error> refuse_wide_text(const FileSource& source) {
  const WideText encoding = detect_wide_text(source.text_head());
  if (encoding == WideText::kNone) return std::nullopt;
  const std::string compressed =
      source.compression() == Compression::kNone
          ? ""
          : ", " + std::string(compression_name(source.compression())) + "-compressed";
  return Error{source.name() + ": " + std::string(wide_text_name(encoding)) + " text" + compressed +
               "; bookforge reads UTF-8 (or ASCII/Latin-1) PGN: convert it first, e.g. iconv -f " +
               std::string(wide_text_iconv_name(encoding)) + " -t UTF-8"};
}

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}
  Result<size_t> read(char* buffer, size_t size) override {
    size_t n = std::min(size, text_.size() - pos_);
    std::memcpy(buffer, text_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  uint64_t bytes_consumed() const override { return pos_; }
  uint64_t total_bytes() const override { return text_.size(); }
  const std::string& name() const override { return name_; }

 private:
  std::string text_;
  size_t pos_ = 0;
  std::string name_;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> open_source(const std::string& path) {
  int fd = 0;
  bool owns = false;
  std::string name = "<stdin>";
  if (path != "-") {
    name = path;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
    owns = true;
  }
  uint64_t total = 0;
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owns) ::close(fd);
      return Error{path + ": is a directory"};
    }
    if (S_ISREG(st.st_mode)) total = uint64_t(st.st_size);
  }
#ifdef POSIX_FADV_SEQUENTIAL
  if (owns) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  auto raw = std::make_unique<RawInput>(fd, owns, std::move(name));
  if (Status s = raw->prime(); !s) return s.error();
  Compression compression = detect_compression(raw->head());
  auto source = std::make_unique<FileSource>(std::move(raw), compression, total);
  if (Status s = source->prime(); !s) return s.error();
  if (std::optional<Error> wide = refuse_wide_text(*source)) return *wide;
  return std::unique_ptr<ByteSource>(std::move(source));
}

std::unique_ptr<ByteSource> memory_source(std::string_view text, std::string name) {
  return std::make_unique<MemorySource>(text, std::move(name));
}

}  // namespace bookforge::pgn
