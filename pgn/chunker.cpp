#include "pgn/chunker.h"

#include <algorithm>
#include <cstring>

namespace bookforge::pgn {

namespace {

// Bytes kept before the scan position when an oversized game's bytes are dropped: enough for
// the splitter to look back over a result token.
constexpr size_t kKeepBehindScan = 64;

// The first block is small and each next one twice as large, up to the block size: the workers
// start on the first games at once instead of waiting for a whole block to be read and split.
constexpr size_t kFirstBlockSize = 64 << 10;

// Capacities get a quarter of headroom: a recycled buffer then fits the next block with the
// unfinished game carried over, and memory stays at a few blocks.
void reserve(ByteBuffer& buffer, size_t bytes) {
  if (bytes <= buffer.capacity()) return;
  const size_t step = std::max<size_t>(bytes / 4, 4096);
  buffer.reserve((bytes + step) / step * step);
}

}  // namespace

Chunker::Chunker(ByteSource& source, size_t block_size, size_t max_game_bytes, BufferPool* pool)
    : source_(source),
      pool_(pool),
      block_size_(std::max<size_t>(block_size, 1)),
      step_(std::min(block_size_, kFirstBlockSize)),
      max_game_bytes_(max_game_bytes) {}

Status Chunker::fill() {
  reserve(buffer_, filled_ + step_);
  buffer_.resize(filled_ + step_);
  Result<size_t> n = source_.read(buffer_.data() + filled_, step_);
  if (!n) return n.error();
  filled_ += *n;
  if (*n == 0) eof_ = true;
  splitter_.scan(buffer_.data(), filled_, eof_, finished_, &finished_tags_);
  return ok_status();
}

// Moves the first `cut` bytes (all finished games) into `block`; the rest stays for later.
void Chunker::take_block(Block& block, size_t cut) {
  ByteBuffer rest = pool_ ? pool_->take() : ByteBuffer();
  reserve(rest, filled_ - cut + block_size_);
  rest.resize(filled_ - cut);
  if (filled_ > cut) std::memcpy(rest.data(), buffer_.data() + cut, filled_ - cut);
  buffer_.resize(cut);
  block.data = std::move(buffer_);
  buffer_ = std::move(rest);
  filled_ -= cut;
  splitter_.rebase(cut);

  block.first_game_in_file = games_ + 1;
  block.offset_in_file = offset_;
  offset_ += cut;
  block.games.clear();
  block.games.swap(finished_);
  block.tags.clear();
  block.tags.swap(finished_tags_);
  games_ += block.games.size();
  // The same rule for games that ended before the scan noticed their size.
  for (GameSpan& span : block.games) {
    if (!span.oversized && span.end - span.begin > max_game_bytes_) {
      span.oversized = true;
      span.begin = span.end = span.result_begin = span.result_size = 0;
    }
  }
}

Result<bool> Chunker::next(Block& block) {
  for (;;) {
    size_t cut = splitter_.settled();
    if (!finished_.empty() && (filled_ >= step_ || eof_)) {
      take_block(block, eof_ ? filled_ : cut);
      step_ = std::min(2 * step_, block_size_);
      return true;
    }
    if (eof_) return false;
    if (Status s = fill(); !s) return s.error();

    if (splitter_.open_game_bytes() > max_game_bytes_) {
      // Hand out the finished games first so the buffer starts inside the open game, then
      // drop all of it the splitter no longer needs.
      if (!finished_.empty()) {
        take_block(block, splitter_.settled());
        return true;
      }
      size_t drop = splitter_.position() - std::min(splitter_.position(), kKeepBehindScan);
      std::memmove(buffer_.data(), buffer_.data() + drop, filled_ - drop);
      filled_ -= drop;
      offset_ += drop;
      splitter_.drop_open_game_prefix(drop);
    }
  }
}

}  // namespace bookforge::pgn
