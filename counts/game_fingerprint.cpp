#include "counts/game_fingerprint.h"

#include <span>
#include <string>
#include <string_view>

#include "base/content_hash.h"
#include "base/little_endian.h"
#include "pgn/tag_value.h"

namespace bookforge::counts {
namespace {

// The fields are laid end to end, each text preceded by its length, so that no two different
// games lay out the same bytes ("ab" + "c" is not "a" + "bc"). The bytes go into one buffer per
// thread, cleared for each game: every game would otherwise allocate it again as it grows.
class FieldBytes {
 public:
  FieldBytes() { bytes_.clear(); }
  void text(std::string_view value) {
    number(value.size(), 4);
    bytes_.append(value);
  }
  void number(uint64_t value, int width) { append_le(bytes_, value, width); }
  // Every ply's move, two bytes each, in one append.
  void moves(std::span<const pgn::PlyRecord> plies) {
    const size_t at = bytes_.size();
    bytes_.resize(at + 2 * plies.size());
    char* out = bytes_.data() + at;
    for (const pgn::PlyRecord& ply : plies) {
      *out++ = char(ply.move & 0xff);
      *out++ = char(ply.move >> 8);
    }
  }
  std::span<const unsigned char> view() const {
    return {reinterpret_cast<const unsigned char*>(bytes_.data()), bytes_.size()};
  }

 private:
  static thread_local std::string bytes_;
};
thread_local std::string FieldBytes::bytes_;

// A tag as decoded text. Most values decode to their own bytes, and are laid out without making
// a copy.
void decoded_tag(FieldBytes& fields, const pgn::TagList* tags, std::string_view name) {
  std::optional<pgn::TagValue> value = tags ? tags->find(name) : std::nullopt;
  if (!value) return fields.text({});
  if (value->decodes_to_raw()) return fields.text(value->raw());
  fields.text(value->decode());
}

std::string_view raw_tag(const pgn::TagList* tags, std::string_view name) {
  if (!tags) return {};
  std::optional<pgn::TagValue> value = tags->find(name);
  return value ? value->raw() : std::string_view();
}

}  // namespace

namespace {
// The game a KnownFingerprint holds on this thread, and its fingerprint.
thread_local const pgn::ReplayedGame* known_game = nullptr;
thread_local uint64_t known_fingerprint = 0;
}  // namespace

KnownFingerprint::KnownFingerprint(const pgn::ReplayedGame& game, uint64_t fingerprint)
    : outer_game_(known_game), outer_fingerprint_(known_fingerprint) {
  known_game = &game;
  known_fingerprint = fingerprint;
}

KnownFingerprint::~KnownFingerprint() {
  known_game = outer_game_;
  known_fingerprint = outer_fingerprint_;
}

uint64_t game_fingerprint(const pgn::ReplayedGame& game) {
  if (known_game == &game) return known_fingerprint;
  FieldBytes fields;
  decoded_tag(fields, game.tags, "White");
  decoded_tag(fields, game.tags, "Black");
  fields.text(raw_tag(game.tags, "Date"));
  fields.text(raw_tag(game.tags, "UTCDate"));
  fields.text(raw_tag(game.tags, "TimeControl"));
  fields.number(uint64_t(game.outcome), 1);
  fields.number(game.white_elo, 2);
  fields.number(game.black_elo, 2);
  // The start position is the first ply's key (with its game ply, whose parity is the side to
  // move); a game without moves has no position to count.
  fields.number(game.start_ply, 2);
  fields.number(game.plies.empty() ? 0 : game.plies.front().key, 8);
  fields.number(game.plies.size(), 4);
  fields.moves(game.plies);
  ContentHasher hasher;
  hasher.update(fields.view());
  const uint64_t hash = hasher.digest();
  return hash != 0 ? hash : 1;
}

}  // namespace bookforge::counts
