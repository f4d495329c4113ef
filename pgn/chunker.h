// Cuts one input into blocks of whole games, ready for a worker thread. Reads fixed-size
// pieces from its source, lets the splitter find the games, and hands out a block once it
// holds at least block_size bytes of finished games; the unfinished game at the end moves on
// to the next block. Memory stays at about one block plus the longest game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "engine/result.h"
#include "pgn/source.h"
#include "pgn/splitter.h"

namespace bookforge::pgn {

// Bytes that are not zero-filled when they grow: a block's memory is touched only as far as
// data arrives.
class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(ByteBuffer&& other) noexcept { *this = std::move(other); }
  ByteBuffer& operator=(ByteBuffer&& other) noexcept {
    bytes_ = std::move(other.bytes_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }

  char* data() { return bytes_.get(); }
  const char* data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Keeps the first min(size, n) bytes; new bytes are uninitialised.
  void resize(size_t n);
  void reserve(size_t n);

 private:
  std::unique_ptr<char[]> bytes_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

struct Block {
  ByteBuffer data;                  // the games' bytes (and whatever lies between them)
  std::vector<GameSpan> games;      // offsets into data
  uint64_t first_game_in_file = 1;  // 1-based number of games[0] within its input
};

class Chunker {
 public:
  // Games longer than max_game_bytes are reported as oversized and their bytes not kept.
  Chunker(ByteSource& source, size_t block_size, size_t max_game_bytes);

  // The next block; false once the input is exhausted. An error comes from the source.
  Result<bool> next(Block& block);

  uint64_t games_so_far() const { return games_; }

 private:
  Status fill();
  void take_block(Block& block, size_t cut);

  ByteSource& source_;
  size_t block_size_;
  size_t max_game_bytes_;
  ByteBuffer buffer_;
  size_t filled_ = 0;
  bool eof_ = false;
  GameSplitter splitter_;
  std::vector<GameSpan> finished_;
  uint64_t games_ = 0;
};

}  // namespace bookforge::pgn
