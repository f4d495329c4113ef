// Where PGN bytes come from: a file or standard input, plain or compressed. The compression is
// recognised by its magic bytes (never by the file name) and undone by Boost.Iostreams, one
// fixed-size read at a time, so a file of any size streams through a few buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bookforge::pgn {

enum class Compression : uint8_t { kNone, kGzip, kBzip2, kXz, kZstd };
std::string_view compression_name(Compression c);

// Recognises a compressed stream from its first bytes (at least 6 are needed to tell them all
// apart; fewer simply mean "not compressed").
Compression detect_compression(std::string_view head);

// A stream of bytes: reads return 0 only at the end. Errors name the input and the byte offset.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `size` bytes; fewer only at the end of the input.
  virtual Result<size_t> read(char* buffer, size_t size) = 0;
  // Input bytes consumed so far (compressed bytes for a compressed file).
  virtual uint64_t bytes_consumed() const = 0;
  // The input's size in bytes when known (regular files), else 0.
  virtual uint64_t total_bytes() const = 0;
  // How the input names itself in messages: the path, or "<stdin>".
  virtual const std::string& name() const = 0;
};

// Opens `path` ("-" is standard input) and sets up the decompressor its magic bytes call for.
// Text in UTF-16 or UTF-32 (pgn/wide_text.h), compressed or not, is an error naming the input
// and its encoding: its first decompressed bytes are read ahead to tell.
Result<std::unique_ptr<ByteSource>> open_source(const std::string& path);

// A source over bytes already in memory (tests and the fuzz target). The text is copied.
std::unique_ptr<ByteSource> memory_source(std::string_view text, std::string name = "<memory>");

}  // namespace bookforge::pgn
