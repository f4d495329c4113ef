#include "pgn/byte_buffer.h"

#include <algorithm>
#include <cstring>

namespace bookforge::pgn {

void ByteBuffer::reserve(size_t n) {
  if (n <= capacity_) return;
  std::unique_ptr<char[]> bigger(new char[n]);
  if (size_) std::memcpy(bigger.get(), bytes_.get(), size_);
  bytes_ = std::move(bigger);
  capacity_ = n;
}

void ByteBuffer::resize(size_t n) {
  if (n > capacity_) reserve(std::max(n, capacity_ + capacity_ / 2));
  size_ = n;
}

ByteBuffer BufferPool::take() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) return ByteBuffer();
  ByteBuffer buffer = std::move(free_.back());
  free_.pop_back();
  buffer.resize(0);
  return buffer;
}

void BufferPool::give(ByteBuffer buffer) {
  std::lock_guard lock(mutex_);
  free_.push_back(std::move(buffer));
}

}  // namespace bookforge::pgn
