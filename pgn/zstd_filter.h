// A zstd decompressor for Boost.Iostreams chains. Boost's own zstd_decompressor reads every
// frame but ends quietly when the input stops in the middle of a frame; a truncated download
// must be an error, so this one remembers whether the last frame was complete.
#pragma once

#include <boost/iostreams/filter/symmetric.hpp>

namespace bookforge::pgn {

// The symmetric-filter core (the interface Boost's symmetric_filter adapts): consumes input
// from [src_begin, src_end), produces into [dest_begin, dest_end), returns false when done.
class ZstdDecompressorImpl {
 public:
  using char_type = char;

  ZstdDecompressorImpl();
  ~ZstdDecompressorImpl();
  ZstdDecompressorImpl(const ZstdDecompressorImpl&) = delete;
  ZstdDecompressorImpl& operator=(const ZstdDecompressorImpl&) = delete;

  bool filter(const char*& src_begin, const char* src_end, char*& dest_begin, char* dest_end, bool flush);
  void close();

 private:
  void* stream_;            // ZSTD_DStream*
  bool mid_frame_ = false;  // the last call ended inside a frame
  bool saw_input_ = false;
};

struct ZstdDecompressor : boost::iostreams::symmetric_filter<ZstdDecompressorImpl> {
  ZstdDecompressor() : symmetric_filter(1 << 16) {}
};

}  // namespace bookforge::pgn
