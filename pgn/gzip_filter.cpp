#include "pgn/gzip_filter.h"

#include <ios>
#include <new>
#include <string>

namespace bookforge::pgn {

namespace {

// 15-bit window, plus 16: a gzip wrapper (header, then CRC-32 and length trailer) is required.
constexpr int kGzipWindowBits = 15 + 16;

}  // namespace

GzipDecompressorImpl::GzipDecompressorImpl() {
  if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw std::bad_alloc();
}

GzipDecompressorImpl::~GzipDecompressorImpl() { inflateEnd(&stream_); }

bool GzipDecompressorImpl::step() {
  if (!in_member_) {
    // The next member starts here: the last one's state (and its checks) are done with.
    if (inflateReset(&stream_) != Z_OK) throw std::ios_base::failure("gzip: cannot reset the decoder");
    in_member_ = true;
  }
  const uInt in_before = stream_.avail_in, out_before = stream_.avail_out;
  const int rc = inflate(&stream_, Z_NO_FLUSH);
  if (rc == Z_STREAM_END) {
    in_member_ = false;
    return true;
  }
  if (rc != Z_OK && rc != Z_BUF_ERROR)
    throw std::ios_base::failure(std::string("gzip: ") + (stream_.msg ? stream_.msg : "corrupt data"));
  return stream_.avail_in != in_before || stream_.avail_out != out_before;
}

bool GzipDecompressorImpl::filter(const char*& src_begin, const char* src_end, char*& dest_begin,
                                  char* dest_end, bool flush) {
  stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(src_begin));
  stream_.avail_in = uInt(src_end - src_begin);
  stream_.next_out = reinterpret_cast<Bytef*>(dest_begin);
  stream_.avail_out = uInt(dest_end - dest_begin);
  const uInt out_size = stream_.avail_out;
  while (stream_.avail_in > 0 && stream_.avail_out > 0)
    if (!step()) break;
  // No more input: drain what the decoder still holds of the member it is in.
  if (flush)
    while (in_member_ && stream_.avail_out > 0)
      if (!step()) break;
  const size_t produced = out_size - stream_.avail_out;
  src_begin = reinterpret_cast<const char*>(stream_.next_in);
  dest_begin += produced;
  if (flush && produced == 0) {
    if (in_member_) throw std::ios_base::failure("gzip: truncated stream (unfinished member)");
    return false;
  }
  return true;
}

void GzipDecompressorImpl::close() {
  inflateReset(&stream_);
  in_member_ = false;
}

}  // namespace bookforge::pgn
