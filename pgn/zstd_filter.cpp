#include "pgn/zstd_filter.h"

#include <zstd.h>

#include <ios>
#include <string>

namespace bookforge::pgn {

namespace {

ZSTD_DStream* dstream(void* p) { return static_cast<ZSTD_DStream*>(p); }

// Runs the decoder once; returns its hint (0 when a frame has just been completed).
size_t step(void* stream, ZSTD_outBuffer& out, ZSTD_inBuffer& in) {
  size_t hint = ZSTD_decompressStream(dstream(stream), &out, &in);
  if (ZSTD_isError(hint)) throw std::ios_base::failure(std::string("zstd: ") + ZSTD_getErrorName(hint));
  return hint;
}

}  // namespace

ZstdDecompressorImpl::ZstdDecompressorImpl() : stream_(ZSTD_createDStream()) {
  if (!stream_) throw std::bad_alloc();
  ZSTD_initDStream(dstream(stream_));
}

ZstdDecompressorImpl::~ZstdDecompressorImpl() { ZSTD_freeDStream(dstream(stream_)); }

bool ZstdDecompressorImpl::filter(const char*& src_begin, const char* src_end, char*& dest_begin,
                                  char* dest_end, bool flush) {
  ZSTD_inBuffer in{src_begin, size_t(src_end - src_begin), 0};
  ZSTD_outBuffer out{dest_begin, size_t(dest_end - dest_begin), 0};
  if (in.size > 0) saw_input_ = true;
  // Frames follow each other; the decoder moves from one to the next by itself.
  while (in.pos < in.size && out.pos < out.size) mid_frame_ = step(stream_, out, in) != 0;
  if (flush) {
    // No more input: drain what the decoder still holds.
    while (out.pos < out.size) {
      size_t before = out.pos;
      mid_frame_ = step(stream_, out, in) != 0;
      if (out.pos == before) break;
    }
  }
  src_begin += in.pos;
  dest_begin += out.pos;
  if (flush && out.pos == 0) {
    if (saw_input_ && mid_frame_) throw std::ios_base::failure("zstd: truncated stream (unfinished frame)");
    return false;
  }
  return true;
}

void ZstdDecompressorImpl::close() {
  ZSTD_initDStream(dstream(stream_));
  mid_frame_ = false;
  saw_input_ = false;
}

}  // namespace bookforge::pgn
