#include "counts/game_list_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/content_hash.h"
#include "base/little_endian.h"
#include "base/output_file.h"

namespace bookforge::counts {
namespace {

constexpr char kMagic[8] = {'B', 'F', 'G', 'A', 'M', 'E', 'S', '\n'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeadBytes = 32;

uint64_t checksum(const std::string& bytes, size_t size) {
  ContentHasher hasher;
  hasher.update({reinterpret_cast<const unsigned char*>(bytes.data()), size});
  return hasher.digest();
}

}  // namespace

Status write_game_list(const std::string& path, const GameList& list) {
  std::string bytes(kMagic, sizeof kMagic);
  append_le(bytes, kVersion, 4);
  append_le(bytes, 0, 4);
  append_le(bytes, list.set_id, 8);
  append_le(bytes, list.fingerprints.size(), 8);
  bytes.reserve(bytes.size() + 8 * list.fingerprints.size() + 8);
  for (uint64_t f : list.fingerprints) append_le(bytes, f, 8);
  append_le(bytes, checksum(bytes, bytes.size()), 8);
  return write_output_file(path, bytes);
}

Result<GameList> read_game_list(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
  const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path + ": cannot read: " + std::strerror(errno)};
  const auto damaged = [&](const std::string& why) {
    return Error{path + ": not a complete game list: " + why};
  };
  if (b.size() < kHeadBytes + 8) return damaged("too short");
  if (std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) return damaged("no game list magic");
  if (load_le(b.data() + 8, 4) != kVersion)
    return Error{path + ": game list version " + std::to_string(load_le(b.data() + 8, 4)) +
                 ", this bookforge reads " + std::to_string(kVersion)};
  GameList list;
  list.set_id = load_le(b.data() + 16, 8);
  const uint64_t n = load_le(b.data() + 24, 8);
  if (n > (b.size() - kHeadBytes - 8) / 8 || b.size() != kHeadBytes + 8 * n + 8)
    return damaged("wrong length");
  if (checksum(b, b.size() - 8) != load_le(b.data() + b.size() - 8, 8))
    return damaged("the checksum does not match");
  list.fingerprints.resize(n);
  for (uint64_t i = 0; i < n; ++i) list.fingerprints[i] = load_le(b.data() + kHeadBytes + 8 * i, 8);
  if (std::adjacent_find(list.fingerprints.begin(), list.fingerprints.end(), std::greater_equal<>()) !=
      list.fingerprints.end())
    return damaged("fingerprints out of order");
  return list;
}

}  // namespace bookforge::counts
