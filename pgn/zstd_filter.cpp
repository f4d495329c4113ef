#include "pgn/zstd_filter.h"

#include <zstd.h>

#include <ios>
#include <string>

namespace bookforge::pgn {

namespace {

ZSTD_DStream* dstream(void* p) { return static_cast<ZSTD_DStream*>(p); }

// Runs the decoder once. `mid_frame` tracks whether the stream stopped inside a frame: the
// decoder's hint is 0 right after a frame ends; a call that moves nothing says nothing.
void step(void* stream, ZSTD_outBuffer& out, ZSTD_inBuffer& in, bool& mid_frame) {
  const size_t in_before = in.pos, out_before = out.pos;
  size_t hint = ZSTD_decompressStream(dstream(stream), &out, &in);
  if (ZSTD_isError(hint)) throw std::ios_base::failure(std::string("zstd: ") + ZSTD_getErrorName(hint));
  if (in.pos != in_before || out.pos != out_before) mid_frame = hint != 0;
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
  while (in.pos < in.size && out.pos < out.size) step(stream_, out, in, mid_frame_);
  if (flush) {
    // No more input: drain what the decoder still holds.
    while (out.pos < out.size) {
      size_t before = out.pos;
      step(stream_, out, in, mid_frame_);
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
