// A gzip decompressor for Boost.Iostreams chains, on zlib directly. Boost's own
// gzip_decompressor checks each member's CRC but not its length trailer (ISIZE); zlib's inflate
// in gzip mode checks both, so a member whose trailer does not match its data is an error.
// Members follow each other (as `cat a.gz b.gz` makes); a stream that stops inside a member is
// an error too.
#pragma once

#include <zlib.h>

#include <boost/iostreams/filter/symmetric.hpp>

namespace bookforge::pgn {

// The symmetric-filter core (the interface Boost's symmetric_filter adapts): consumes input
// from [src_begin, src_end), produces into [dest_begin, dest_end), returns false when done.
class GzipDecompressorImpl {
 public:
  using char_type = char;

  GzipDecompressorImpl();
  ~GzipDecompressorImpl();
  GzipDecompressorImpl(const GzipDecompressorImpl&) = delete;
  GzipDecompressorImpl& operator=(const GzipDecompressorImpl&) = delete;

  bool filter(const char*& src_begin, const char* src_end, char*& dest_begin, char* dest_end, bool flush);
  void close();

 private:
  // Runs inflate once; false when it could make no progress.
  bool step();

  z_stream stream_{};
  bool in_member_ = false;  // a member was started and has not reached its trailer yet
};

struct GzipDecompressor : boost::iostreams::symmetric_filter<GzipDecompressorImpl> {
  GzipDecompressor() : symmetric_filter(1 << 16) {}
};

}  // namespace bookforge::pgn
