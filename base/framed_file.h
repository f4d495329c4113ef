// A file of items written whole, put in place when complete, and checked whole as it is read
// back: bookforge's files that travel between machines (counts files, counts/counts_file.h;
// the store's games of a set, store/set_games.h) share this frame and differ in their magic,
// header text and item encoding.
//
//   offset   bytes  what
//   0        8      magic: the kind of file
//   8        4      format version, u32 little-endian
//   12       4      header length H, u32 little-endian
//   16       H      header: the kind's text
//   16 + H   ...    the items, in the kind's encoding
//   end - 24 8      the number of items, u64 little-endian
//   end - 16 8      end magic (a file cut short does not end with it)
//   end - 8  8      checksum, u64 little-endian: ContentHasher (base/content_hash.h) of every
//                   byte before it
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/content_hash.h"
#include "base/output_file.h"
#include "base/result.h"

namespace bookforge {

// A header as text lines "name value", each value with '\' and line breaks escaped as \\ and \n.
std::string header_line(std::string_view name, std::string_view value);
// The (name, value) lines of such a header, values unescaped; an error says what is wrong.
Result<std::vector<std::pair<std::string, std::string>>> header_lines(std::string_view text);

struct FrameKind {
  char magic[8];
  char end_magic[8];
  uint32_t version;
  const char* name;  // in messages: "counts" -> "not a complete counts file", "counts format version"
};

class FramedWriter {
 public:
  // Written under a temporary name (base/output_file.h), in place once commit() succeeds.
  static Result<FramedWriter> create(const std::string& path, const FrameKind& kind, std::string_view header);
  FramedWriter(FramedWriter&&) = default;

  // Room for `size` bytes (at most kMaxReserve) after the items written so far: encode items
  // there, then wrote() their length and number.
  static constexpr size_t kMaxReserve = 64 << 10;
  uint8_t* reserve(size_t size);
  void wrote(size_t bytes, uint64_t items = 1) {
    used_ += bytes;
    items_ += items;
  }
  // One item of any length.
  void put_item(const void* data, size_t size);

  // The trailer, then the file in place; the file's size.
  Result<uint64_t> commit();

 private:
  explicit FramedWriter(OutputFile file);
  void put(const void* data, size_t size);
  void flush();

  OutputFile file_;
  ContentHasher hasher_;
  char end_magic_[8];
  std::vector<uint8_t> buffer_;
  size_t used_ = 0;
  uint64_t bytes_ = 0;
  uint64_t items_ = 0;
  Status error_ = ok_status();
};

// Reads the items of a framed file as bytes. open() checks the magic, version and end magic and
// reads the header; the checksum and the item count are checked at the end of the items
// (finish()), and a mismatch is an error naming the file. The file is opened again when the
// items are first asked for and closed at their end, so that thousands of readers do not hold a
// descriptor each.
class FramedReader {
 public:
  static Result<FramedReader> open(const std::string& path, const FrameKind& kind);
  FramedReader(FramedReader&&) noexcept;
  FramedReader& operator=(FramedReader&&) noexcept;
  ~FramedReader();

  const std::string& path() const { return path_; }
  const std::string& header() const { return header_; }
  uint64_t items() const { return items_; }  // as the trailer says

  // At least `want` bytes of items from the current position (fewer only at the end of the
  // items): [data(), end()). False on an error (status() says which). Moves the data.
  bool fill(size_t want);
  const uint8_t* data() const { return buffer_.data() + pos_; }
  const uint8_t* end() const { return buffer_.data() + end_; }
  // Moves past the bytes of one item decoded from data() onwards, ending at `next`.
  void consumed_item(const uint8_t* next) { consumed_items(next, 1); }
  // Moves past `count` items decoded one after another from data() onwards, ending at `next`.
  void consumed_items(const uint8_t* next, uint64_t count) {
    pos_ = size_t(next - buffer_.data());
    read_ += count;
  }
  bool at_end() const { return pos_ == end_ && consumed_ == items_end_ - items_begin_; }
  // Once at the end: every byte read, as many items as the trailer says, the checksum right.
  // False otherwise, the status saying what is wrong.
  bool finish();
  // Stops reading with an error naming the file ("damaged: ..." says what).
  void fail(const std::string& why);
  Status status() const { return status_; }

 private:
  explicit FramedReader(std::string path) : path_(std::move(path)) {}
  void close_file();

  std::string path_;
  std::string header_;
  int fd_ = -1;
  uint64_t items_begin_ = 0;  // file offsets of the items
  uint64_t items_end_ = 0;
  uint64_t items_ = 0;
  uint64_t checksum_ = 0;
  std::string prefix_;  // the bytes before the items, hashed when reading starts
  std::string trailer_;
  ContentHasher hasher_;
  std::vector<uint8_t> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t consumed_ = 0;  // item bytes read into the buffer
  uint64_t read_ = 0;      // items consumed
  bool started_ = false;
  bool done_ = false;
  Status status_ = ok_status();
};

}  // namespace bookforge
