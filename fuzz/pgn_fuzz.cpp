// libFuzzer target for the PGN reader: splitter, chunker, lexer, tag decoding, filters and
// replay on arbitrary bytes. Besides crashes and sanitizer reports it checks the reader's
// central promise: the games found do not depend on the block size. Every input is read once
// whole and once in blocks of 1..16 bytes; any difference aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pgn/chunker.h"
#include "pgn/filter.h"
#include "pgn/lexer.h"
#include "pgn/replay.h"
#include "pgn/result_token.h"
#include "pgn/source.h"

namespace {

using namespace bookforge::pgn;

// Folds everything a game shows into one number (FNV-1a).
class Fingerprint {
 public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 1099511628211ull;
    hash_ = (hash_ ^ 0xff) * 1099511628211ull;
  }
  void add(uint64_t n) { add(std::string_view(reinterpret_cast<const char*>(&n), sizeof n)); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 1469598103934665603ull;
};

// Records the lexer's calls, decodes every tag and asks the filter helpers about them.
class FingerprintVisitor final : public Visitor {
 public:
  Fingerprint print;
  Control begin_game(const GameContext& game) override {
    game_ = &game;
    first_move_ = true;
    print.add("game");
    print.add(game.first_line);
    print.add(game.result);
    return Control::kContinue;
  }
  Control tag(std::string_view name, TagValue value) override {
    print.add(name);
    print.add(value.decode());
    print.add(uint64_t(value.to_int().value_or(-1)));
    if (std::optional<Speed> s = speed_from_time_control(value.raw())) print.add(uint64_t(*s));
    return Control::kContinue;
  }
  Control san(std::string_view token) override {
    print.add(token);
    if (first_move_) print.add(game_->line_of(token.data()));
    first_move_ = false;
    return Control::kContinue;
  }
  Control nag(int nag) override {
    print.add(uint64_t(nag));
    return Control::kContinue;
  }
  Control comment(std::string_view text) override {
    print.add(text);
    return Control::kContinue;
  }
  Control begin_variation() override {
    print.add("(");
    return Control::kContinue;
  }
  Control end_variation() override {
    print.add(")");
    return Control::kContinue;
  }
  Control outcome(Outcome o, std::string_view token) override {
    print.add(uint64_t(o));
    print.add(token);
    if (parse_result_token(token) != o) std::abort();
    return Control::kContinue;
  }
  Control error(LexError e, const char* where) override {
    print.add(lex_error_reason(e));
    if (where) print.add(game_->line_of(where));
    return Control::kContinue;
  }

 private:
  const GameContext* game_ = nullptr;
  bool first_move_ = false;
};

class CheckingSink final : public GameSink {
 public:
  explicit CheckingSink(int max_ply) : max_ply_(max_ply) {}
  Fingerprint print;
  void on_game(const ReplayedGame& game) override {
    if (max_ply_ > 0 && game.plies.size() > size_t(max_ply_)) std::abort();
    print.add(game.game_number);
    for (const PlyRecord& p : game.plies) {
      print.add(p.key);
      print.add(uint64_t(p.move) << 16 | p.ply);
    }
  }

 private:
  int max_ply_;
};

struct Reading {
  uint64_t lexed = 0;
  uint64_t replayed = 0;
  uint64_t games = 0;
  bool operator==(const Reading&) const = default;
};

Reading read_all(std::string_view text, size_t block_size, size_t max_game_bytes,
                 const PipelineOptions& options) {
  std::unique_ptr<ByteSource> source = memory_source(text);
  Chunker chunker(*source, block_size, max_game_bytes);
  FingerprintVisitor lexed;
  CheckingSink sink(options.max_ply);
  WorkerStats stats;
  GameReplayer replayer(options, sink, stats);
  const std::string file = "fuzz";
  Block block;
  uint64_t number = 0;
  for (;;) {
    bookforge::Result<bool> more = chunker.next(block);
    if (!more.ok()) std::abort();  // memory sources cannot fail
    if (!*more) break;
    for (const GameSpan& span : block.games) {
      if (span.end < span.begin || span.end > block.data.size()) std::abort();
      visit_game(block, span, lexed);
      ++number;
      replayer.set_origin(&file, number, number, block.offset_in_file + span.begin);
      visit_game(block, span, replayer);
    }
  }
  const bookforge::pgn::ReadStats& s = stats.stats;
  uint64_t rejected = 0;
  for (uint64_t r : stats.rejected) rejected += r;
  if (s.games != number || s.games != s.accepted + s.bad + s.unsupported_variant + rejected) std::abort();
  Fingerprint all;
  all.add(s.games);
  all.add(s.accepted);
  all.add(s.bad);
  all.add(s.plies);
  all.add(sink.print.value());
  return Reading{lexed.print.value(), all.value(), number};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  // Byte 0: block size for the cut reading; byte 1: max ply and the game size limit.
  const size_t block_size = 1 + (data[0] & 15);
  PipelineOptions options;
  options.max_ply = data[1] & 31;
  options.filter.min_plies = (data[1] >> 5) & 3;
  const size_t max_game_bytes = (data[1] & 0x80) ? 512 : size_t(64) << 20;
  std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  Reading whole = read_all(text, text.size() + 1, max_game_bytes, options);
  Reading cut = read_all(text, block_size, max_game_bytes, options);
  if (!(whole == cut)) {
    std::fprintf(stderr, "block size %zu changed the result: %llu games whole, %llu cut\n", block_size,
                 static_cast<unsigned long long>(whole.games), static_cast<unsigned long long>(cut.games));
    std::abort();
  }
  return 0;
}
