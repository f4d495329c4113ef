#include "store/game_text.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <vector>

#include "book/polyglot/format.h"
#include "counts/game_fingerprint.h"
#include "pgn/chunker.h"
#include "pgn/lexer.h"
#include "pgn/pipeline_options.h"
#include "pgn/replay.h"
#include "pgn/source.h"

namespace bookforge::store {
namespace {

// The fingerprint of the game replayed, as db add computed it.
class FingerprintSink final : public pgn::GameSink {
 public:
  void on_game(const pgn::ReplayedGame& game) override { fingerprint = counts::game_fingerprint(game); }
  std::optional<uint64_t> fingerprint;
};

std::string where(const GameRecord& game) {
  return "game " + std::to_string(game.number) + ", at byte " + std::to_string(game.offset);
}

}  // namespace

Result<std::string> read_game_text(const SourceRecord& source, const GameRecord& game) {
  if (source.name == "-" || !source.hash)
    return Error{"the game came from standard input: its text was not kept (" + where(game) +
                 " of that input)"};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source.name, ec))
    return Error{source.name + ": no such file (moved or removed since it was added on " + source.added +
                 "); the " + where(game) + " in it"};
  Result<std::unique_ptr<pgn::ByteSource>> opened = pgn::open_source(source.name);
  if (!opened) return opened.error();
  pgn::ByteSource& bytes = **opened;
  const auto changed = [&](const std::string& what) {
    return Error{source.name + ": " + what + " (" + where(game) +
                 "); the file changed since it was added on " + source.added};
  };
  // Up to the game: read and dropped (a compressed file cannot be entered anywhere else).
  std::vector<char> skipped(std::min<uint64_t>(game.offset, uint64_t(1) << 20));
  for (uint64_t left = game.offset; left > 0;) {
    Result<size_t> got = bytes.read(skipped.data(), size_t(std::min<uint64_t>(left, skipped.size())));
    if (!got) return got.error();
    if (*got == 0) return changed("it ends before the game");
    left -= *got;
  }
  const pgn::PipelineOptions defaults;
  pgn::Chunker chunker(bytes, defaults.block_size, defaults.max_game_bytes);
  pgn::Block block;
  Result<bool> more = chunker.next(block);
  if (!more) return more.error();
  if (!*more || block.games.empty()) return changed("no game where it was");
  const pgn::GameSpan& span = block.games.front();
  if (span.oversized) return Error{source.name + ": the " + where(game) + " is too long to show"};
  // Is it the game added? Its fingerprint, replayed as the source was counted (up to its max ply).
  pgn::PipelineOptions replay;
  replay.max_ply = source.settings.max_ply;
  pgn::WorkerStats stats;
  FingerprintSink fingerprint;
  pgn::GameReplayer replayer(replay, fingerprint, stats);
  replayer.set_origin(&source.name, game.number, game.number, game.offset);
  pgn::visit_game(block, span, replayer);
  if (fingerprint.fingerprint != game.fingerprint) return changed("another game lies where the game was");
  return std::string(block.data.data() + span.begin, span.end - span.begin);
}

std::string game_id(uint64_t fingerprint) { return book::hex_key(fingerprint); }

std::optional<uint64_t> parse_game_id(std::string_view id) {
  uint64_t value = 0;
  const char* end = id.data() + id.size();
  if (id.empty() || id.size() > 16) return std::nullopt;
  auto [stop, error] = std::from_chars(id.data(), end, value, 16);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

Result<std::optional<std::string>> stored_game_text(Store& store, uint64_t fingerprint) {
  Result<std::optional<GameRecord>> game = store.game(fingerprint);
  if (!game) return game.error();
  if (!*game) return std::optional<std::string>();
  Result<std::vector<SourceRecord>> sources = store.sources();
  if (!sources) return sources.error();
  for (const SourceRecord& source : *sources) {
    if (source.id != (*game)->source) continue;
    Result<std::string> text = read_game_text(source, **game);
    if (!text) return text.error();
    return std::optional<std::string>(std::move(*text));
  }
  return Error{store.path() + ": game " + game_id(fingerprint) + " names source " +
               std::to_string((*game)->source) + ", which the store does not hold"};
}

}  // namespace bookforge::store
