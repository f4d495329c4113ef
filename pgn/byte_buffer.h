// The memory blocks travel in: a byte buffer that is not zero-filled when it grows (a block's
// pages are touched only as far as data arrives), and a pool that hands finished buffers back
// to the reader so that a long read reuses the same few blocks instead of allocating new ones.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace bookforge::pgn {

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

// Buffers given back by the workers, taken again by the reader. Thread-safe.
class BufferPool {
 public:
  // An empty buffer, with the capacity of a recycled one when there is one.
  ByteBuffer take();
  void give(ByteBuffer buffer);

 private:
  std::mutex mutex_;
  std::vector<ByteBuffer> free_;
};

}  // namespace bookforge::pgn
