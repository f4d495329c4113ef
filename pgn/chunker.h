// Cuts one input into blocks of whole games, ready for a worker thread. Reads fixed-size
// pieces from its source, lets the splitter find the games, and hands out a block once it
// holds at least block_size bytes of finished games; the unfinished game at the end moves on
// to the next block. Memory stays at about one block plus the longest game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/result.h"
#include "pgn/byte_buffer.h"
#include "pgn/source.h"
#include "pgn/splitter.h"

namespace bookforge::pgn {

struct Block {
  ByteBuffer data;                  // the games' bytes (and whatever lies between them)
  std::vector<GameSpan> games;      // offsets into data
  std::vector<TagSpan> tags;        // the tags of games with tags_known
  uint64_t first_game_in_file = 1;  // 1-based number of games[0] within its input
  uint64_t offset_in_file = 0;      // where data[0] lies in its input (decompressed bytes)
};

class Chunker {
 public:
  // Games longer than max_game_bytes are reported as oversized and their bytes not kept.
  // Buffers come from `pool` when given (the blocks' consumers give them back there).
  Chunker(ByteSource& source, size_t block_size, size_t max_game_bytes, BufferPool* pool = nullptr);

  // The next block; false once the input is exhausted. An error comes from the source.
  Result<bool> next(Block& block);

  uint64_t games_so_far() const { return games_; }

 private:
  Status fill();
  void take_block(Block& block, size_t cut);

  ByteSource& source_;
  BufferPool* pool_;
  size_t block_size_;
  size_t step_;  // the size of the next block: small at first, growing to block_size_
  size_t max_game_bytes_;
  ByteBuffer buffer_;
  size_t filled_ = 0;
  bool eof_ = false;
  GameSplitter splitter_;
  std::vector<GameSpan> finished_;
  std::vector<TagSpan> finished_tags_;
  uint64_t games_ = 0;
  uint64_t offset_ = 0;  // where buffer_[0] lies in the input
};

}  // namespace bookforge::pgn
