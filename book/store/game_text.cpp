#include "book/store/game_text.h"

#include <charconv>
#include <filesystem>

#include "book/polyglot/format.h"
#include "book/store/content_hash.h"
#include "pgn/chunker.h"
#include "pgn/pipeline_options.h"
#include "pgn/source.h"

namespace bookforge::store {
namespace {

// Passes a source's bytes on and hashes them, as `db add` hashed the content it read.
class HashingSource final : public pgn::ByteSource {
 public:
  explicit HashingSource(pgn::ByteSource& inner) : inner_(inner) {}

  Result<size_t> read(char* buffer, size_t size) override {
    Result<size_t> got = inner_.read(buffer, size);
    if (got) {
      hasher_.update({reinterpret_cast<const unsigned char*>(buffer), *got});
      size_ += *got;
    }
    return got;
  }
  uint64_t bytes_consumed() const override { return inner_.bytes_consumed(); }
  uint64_t total_bytes() const override { return inner_.total_bytes(); }
  const std::string& name() const override { return inner_.name(); }

  FileDigest digest() const { return FileDigest{size_, hasher_.digest()}; }

 private:
  pgn::ByteSource& inner_;
  ContentHasher hasher_;
  uint64_t size_ = 0;
};

}  // namespace

Result<std::string> read_game_text(const SourceRecord& source, uint64_t number) {
  if (source.name == "-" || !source.hash)
    return Error{"the game came from standard input: its text was not kept (game " + std::to_string(number) +
                 " of that input)"};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source.name, ec))
    return Error{source.name + ": no such file (moved or removed since it was added on " + source.added +
                 "); the game is number " + std::to_string(number) + " in it"};
  Result<std::unique_ptr<pgn::ByteSource>> opened = pgn::open_source(source.name);
  if (!opened) return opened.error();
  HashingSource hashing(**opened);
  const pgn::PipelineOptions defaults;
  pgn::Chunker chunker(hashing, defaults.block_size, defaults.max_game_bytes);
  pgn::Block block;
  std::optional<std::string> text;
  // The whole content is read, to check its hash, even once the game is found.
  for (;;) {
    Result<bool> more = chunker.next(block);
    if (!more) return more.error();
    if (!*more) break;
    if (text || number < block.first_game_in_file || number >= block.first_game_in_file + block.games.size())
      continue;
    const pgn::GameSpan& span = block.games[size_t(number - block.first_game_in_file)];
    if (span.oversized)
      return Error{source.name + ": game " + std::to_string(number) + " is too long to show"};
    text = std::string(block.data.data() + span.begin, span.end - span.begin);
  }
  if (hashing.digest().hex() != *source.hash)
    return Error{source.name + ": its content changed since it was added on " + source.added + " (hash " +
                 hashing.digest().hex() + ", added as " + *source.hash + ")"};
  if (!text) return Error{source.name + ": has no game " + std::to_string(number)};
  return *text;
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
    Result<std::string> text = read_game_text(source, (*game)->number);
    if (!text) return text.error();
    return std::optional<std::string>(std::move(*text));
  }
  return Error{store.path() + ": game " + game_id(fingerprint) + " names source " +
               std::to_string((*game)->source) + ", which the store does not hold"};
}

}  // namespace bookforge::store
