// The content hash: incremental updates equal one pass, and small changes change the digest.
#include "base/content_hash.h"

#include <random>
#include <set>

#include "support/test_support.h"

namespace bookforge {
namespace {

std::vector<unsigned char> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}

uint64_t hash_of(std::span<const unsigned char> bytes) {
  ContentHasher h;
  h.update(bytes);
  return h.digest();
}

TEST(ContentHash, PiecewiseUpdatesEqualOneUpdate) {
  const auto data = random_bytes(1000, 1);
  const uint64_t whole = hash_of(data);
  for (size_t piece : {1, 3, 7, 31, 32, 33, 64, 100, 999}) {
    ContentHasher h;
    for (size_t at = 0; at < data.size(); at += piece)
      h.update(std::span(data).subspan(at, std::min(piece, data.size() - at)));
    EXPECT_EQ(h.digest(), whole) << "piece " << piece;
  }
}

TEST(ContentHash, EveryFlippedBitAndEveryLengthGivesANewDigest) {
  auto data = random_bytes(200, 2);
  std::set<uint64_t> seen;
  seen.insert(hash_of(data));
  for (size_t i = 0; i < data.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      data[i] ^= static_cast<unsigned char>(1 << bit);
      seen.insert(hash_of(data));
      data[i] ^= static_cast<unsigned char>(1 << bit);
    }
  }
  EXPECT_EQ(seen.size(), 1 + data.size() * 8);
  // Trailing zero bytes must not vanish into the padding.
  std::set<uint64_t> lengths;
  std::vector<unsigned char> zeros(100, 0);
  for (size_t n = 0; n <= zeros.size(); ++n) lengths.insert(hash_of(std::span(zeros).first(n)));
  EXPECT_EQ(lengths.size(), zeros.size() + 1);
}

TEST(ContentHash, DigestFileHashesTheRawBytes) {
  test::TempDir dir;
  const auto data = random_bytes(3 << 20 | 17, 3);  // crosses the 1 MiB read buffer
  test::write_file(dir / "f.bin", std::string(data.begin(), data.end()));
  Result<FileDigest> d = digest_file(dir / "f.bin");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->size, data.size());
  EXPECT_EQ(d->hash, hash_of(data));
  EXPECT_EQ(d->hex().size(), 16u);
  Result<FileDigest> missing = digest_file(dir / "missing.pgn");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing.pgn: cannot open"), std::string::npos);
}

}  // namespace
}  // namespace bookforge
