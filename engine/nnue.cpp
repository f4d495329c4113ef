#include "engine/nnue.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/little_endian.h"
#include "chess/attacks.h"

// The shipped network's bytes, placed in the binary by the assembler (CMake passes the file's
// path as BOOKFORGE_NETWORK_FILE and rebuilds this file when the network changes).
#define BOOKFORGE_STRINGIFY2(x) #x
#define BOOKFORGE_STRINGIFY(x) BOOKFORGE_STRINGIFY2(x)
__asm__(".section .rodata\n"
        ".balign 64\n"
        ".global bookforge_network_begin\n"
        "bookforge_network_begin:\n"
        ".incbin \"" BOOKFORGE_STRINGIFY(BOOKFORGE_NETWORK_FILE) "\"\n"
        ".global bookforge_network_end\n"
        "bookforge_network_end:\n"
        ".previous\n");
extern "C" const unsigned char bookforge_network_begin[];
extern "C" const unsigned char bookforge_network_end[];

namespace bookforge::engine::nnue {
namespace {

constexpr char kMagic[4] = {'B', 'F', 'N', 'N'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeadBytes = 12;

// A field of the file: its value, and the reader moved past it.
template <class T>
void put(std::string& out, T value) {
  append_le(out, uint64_t(value), int(sizeof(T)));
}
template <class T>
T get(const unsigned char*& p) {
  const T value = T(load_le(p, int(sizeof(T))));
  p += sizeof(T);
  return value;
}

std::atomic<bool> g_use_network{true};
std::unique_ptr<Network> g_loaded;  // the network of use_network_file, if any
std::atomic<const Network*> g_active{nullptr};

}  // namespace

Result<std::unique_ptr<Network>> read_network(std::span<const unsigned char> bytes, const std::string& name) {
  const size_t want = kHeadBytes + 2 * (size_t(kFeatures) * kHidden + kHidden + 2 * kHidden) + 4;
  if (bytes.size() < kHeadBytes || std::memcmp(bytes.data(), kMagic, 4) != 0)
    return Error{name + ": not a bookforge network (no BFNN header)"};
  const unsigned char* p = bytes.data() + 4;
  const uint32_t version = get<uint32_t>(p), hidden = get<uint32_t>(p);
  if (version != kVersion)
    return Error{name + ": network format " + std::to_string(version) + ", this build reads " +
                 std::to_string(kVersion)};
  if (hidden != uint32_t(kHidden))
    return Error{name + ": a network of " + std::to_string(hidden) + " neurons, this build has " +
                 std::to_string(kHidden)};
  if (bytes.size() != want)
    return Error{name + ": " + std::to_string(bytes.size()) + " bytes, a network has " +
                 std::to_string(want)};
  auto net = std::make_unique<Network>();
  for (int16_t& w : net->feature_weights) w = get<int16_t>(p);
  for (int16_t& w : net->feature_bias) w = get<int16_t>(p);
  for (int16_t& w : net->output_weights) w = get<int16_t>(p);
  net->output_bias = get<int32_t>(p);
  // The output sum runs in 32 bits: a file whose largest possible sum does not fit is refused
  // rather than overflowing in the search.
  int64_t largest = std::abs(int64_t(net->output_bias));
  for (int16_t w : net->output_weights) largest += int64_t(kQA) * std::abs(int64_t(w));
  if (largest > INT32_MAX) return Error{name + ": output weights too large for this build's integer network"};
  return net;
}

Result<std::unique_ptr<Network>> read_network_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the network file"};
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path + ": cannot read the network file"};
  return read_network({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, path);
}

std::string network_bytes(const Network& network) {
  std::string out(kMagic, 4);
  put(out, kVersion);
  put(out, uint32_t(kHidden));
  for (int16_t w : network.feature_weights) put(out, w);
  for (int16_t w : network.feature_bias) put(out, w);
  for (int16_t w : network.output_weights) put(out, w);
  put(out, network.output_bias);
  return out;
}

const Network& embedded_network() {
  static const std::unique_ptr<Network> network = [] {
    auto net =
        read_network({bookforge_network_begin, size_t(bookforge_network_end - bookforge_network_begin)},
                     "the embedded network");
    // The build checks the file (tests/engine/nnue_test.cpp); a bad one cannot run.
    if (!net.ok()) std::abort();
    return std::move(*net);
  }();
  return *network;
}

const Network& active_network() {
  const Network* net = g_active.load(std::memory_order_relaxed);
  return net ? *net : embedded_network();
}

Status use_network_file(const std::string& path) {
  if (path.empty() || path == "<embedded>") {
    g_active.store(nullptr);
    g_loaded.reset();
    return ok_status();
  }
  Result<std::unique_ptr<Network>> net = read_network_file(path);
  if (!net.ok()) return net.error();
  g_active.store(net->get());
  g_loaded = std::move(*net);
  return ok_status();
}

Score evaluate(const chess::Board& board, const Network& network) {
  alignas(64) int16_t acc[2][kHidden];
  std::copy(network.feature_bias.begin(), network.feature_bias.end(), acc[0]);
  std::copy(network.feature_bias.begin(), network.feature_bias.end(), acc[1]);
  const chess::Color us = board.side_to_move();
  for (chess::Bitboard left = board.pieces(); left;) {
    const chess::Square s = chess::pop_lsb(left);
    const chess::Piece p = board.piece_on(s);
    const int16_t* mine = network.feature_weights.data() + size_t(feature(us, p, s)) * kHidden;
    const int16_t* theirs = network.feature_weights.data() + size_t(feature(~us, p, s)) * kHidden;
    for (int i = 0; i < kHidden; ++i) acc[0][i] = int16_t(acc[0][i] + mine[i]);
    for (int i = 0; i < kHidden; ++i) acc[1][i] = int16_t(acc[1][i] + theirs[i]);
  }
  int32_t sum = 0;
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < kHidden; ++i)
      sum += int32_t(std::clamp<int16_t>(acc[side][i], 0, kQA)) *
             network.output_weights[size_t(side * kHidden + i)];
  sum += network.output_bias;
  const int64_t cp = int64_t(sum) * kScale / (kQA * kQB);
  return Score(std::clamp<int64_t>(cp, -(kScoreMateInMaxPly - 1), kScoreMateInMaxPly - 1));
}

void set_use_network(bool use) { g_use_network.store(use, std::memory_order_relaxed); }
bool use_network() { return g_use_network.load(std::memory_order_relaxed); }

}  // namespace bookforge::engine::nnue
