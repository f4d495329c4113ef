#include "base/content_hash.h"

#include "base/hex.h"
#include "base/little_endian.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace bookforge {
namespace {

constexpr uint64_t kOdd[4] = {0xa0761d6478bd642fULL, 0xe7037ed1a0b428dbULL, 0x8ebc6af09c88c6e3ULL,
                              0x589965cc75374cc3ULL};

uint64_t absorb(uint64_t lane, uint64_t word, uint64_t odd) {
  lane = (lane ^ word) * odd;
  return lane ^ (lane >> 29);
}

// Every input bit affects every output bit with probability close to one half.
uint64_t avalanche(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

void ContentHasher::absorb_stripe(const unsigned char* stripe) {
  for (int i = 0; i < 4; ++i) lanes_[i] = absorb(lanes_[i], load_le(stripe + 8 * i), kOdd[i]);
}

void ContentHasher::update(std::span<const unsigned char> bytes) {
  length_ += bytes.size();
  size_t at = 0;
  if (pending_size_ > 0) {
    size_t take = std::min(bytes.size(), sizeof pending_ - pending_size_);
    std::memcpy(pending_ + pending_size_, bytes.data(), take);
    pending_size_ += take;
    at = take;
    if (pending_size_ < sizeof pending_) return;
    absorb_stripe(pending_);
    pending_size_ = 0;
  }
  for (; at + 32 <= bytes.size(); at += 32) absorb_stripe(bytes.data() + at);
  pending_size_ = bytes.size() - at;
  std::memcpy(pending_, bytes.data() + at, pending_size_);
}

uint64_t ContentHasher::digest() const {
  // The tail is zero-padded into one more stripe; the length tells "abc" from "abc\0".
  unsigned char tail[32] = {};
  std::memcpy(tail, pending_, pending_size_);
  uint64_t lanes[4];
  for (int i = 0; i < 4; ++i) lanes[i] = absorb(lanes_[i], load_le(tail + 8 * i), kOdd[i]);
  uint64_t h = length_ * kOdd[0];
  for (int i = 0; i < 4; ++i) h = absorb(h, avalanche(lanes[i] + uint64_t(i)), kOdd[(i + 1) & 3]);
  return avalanche(h);
}

std::string FileDigest::hex() const { return hex64(hash); }

Result<FileDigest> digest_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<unsigned char> buffer(1 << 20);
  ContentHasher hasher;
  FileDigest d;
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Error{path + ": read error at byte " + std::to_string(d.size) + ": " + std::strerror(err)};
    }
    if (n == 0) break;
    hasher.update({buffer.data(), size_t(n)});
    d.size += uint64_t(n);
  }
  ::close(fd);
  d.hash = hasher.digest();
  return d;
}

}  // namespace bookforge
