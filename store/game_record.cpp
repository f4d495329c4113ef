#include "store/game_record.h"

#include "chess/board.h"
#include "counts/slice.h"
#include "counts/varint.h"
#include "pgn/tag_value.h"
#include "store/game_text.h"

namespace bookforge::store {
namespace {

std::string decoded(const pgn::TagList& tags, std::string_view name) {
  std::optional<pgn::TagValue> value = tags.find(name);
  return value ? value->decode() : std::string();
}

bool is_url(std::string_view text) { return text.rfind("https://", 0) == 0 || text.rfind("http://", 0) == 0; }

// The digits of date[at, at + width) as a number, or 0 when any of them is not a digit.
uint32_t date_part(std::string_view date, size_t at, size_t width) {
  if (date.size() < at + width) return 0;
  uint32_t value = 0;
  for (size_t i = at; i < at + width; ++i) {
    if (date[i] < '0' || date[i] > '9') return 0;
    value = value * 10 + uint32_t(date[i] - '0');
  }
  return value;
}

void put_u16(std::string& out, uint16_t v) {
  out.push_back(char(uint8_t(v)));
  out.push_back(char(uint8_t(v >> 8)));
}

void put_text(std::string& out, const std::string& text) {
  uint8_t length[counts::kMaxVarintBytes];
  out.append(reinterpret_cast<const char*>(length), counts::put_varint(length, text.size()));
  out.append(text);
}

}  // namespace

std::string GameRecord::result() const {
  switch (outcome) {
    case pgn::Outcome::kWhiteWins:
      return "1-0";
    case pgn::Outcome::kDraw:
      return "1/2-1/2";
    case pgn::Outcome::kBlackWins:
      return "0-1";
    case pgn::Outcome::kUnknown:
      break;
  }
  return "*";
}

uint32_t date_rank(std::string_view date) {
  const uint32_t year = date_part(date, 0, 4);
  if (year == 0) return 0;
  return year * 10000 + date_part(date, 5, 2) * 100 + date_part(date, 8, 2);
}

uint16_t rating_rank(uint16_t white_elo, uint16_t black_elo) {
  if (white_elo == 0 || black_elo == 0) return 0;
  return uint16_t((uint32_t(white_elo) + black_elo) / 2);
}

GameMode mode_of_event(std::string_view event) {
  if (event.rfind("Rated ", 0) == 0) return GameMode::kRated;
  if (event.rfind("Casual ", 0) == 0) return GameMode::kCasual;
  return GameMode::kUnknown;
}

GameRecord game_record(const pgn::ReplayedGame& game, uint64_t fingerprint, int64_t input) {
  GameRecord r;
  r.fingerprint = fingerprint;
  r.source = input;
  r.number = game.number_in_file;
  r.offset = game.offset_in_file;
  r.white_elo = game.white_elo;
  r.black_elo = game.black_elo;
  r.outcome = game.outcome;
  static const uint64_t kStartKey = chess::Board().key();
  if (!game.plies.empty() && game.plies.front().key == kStartKey && game.start_ply == 0) {
    r.moves.reserve(2 * game.plies.size());
    for (const pgn::PlyRecord& ply : game.plies) put_u16(r.moves, ply.move);
  }
  r.slice = counts::slice_of_game(game);
  if (!game.tags) return r;
  const pgn::TagList& tags = *game.tags;
  r.white = decoded(tags, "White");
  r.black = decoded(tags, "Black");
  r.event = decoded(tags, "Event");
  r.mode = mode_of_event(r.event);
  r.date = decoded(tags, "Date");
  if (date_rank(r.date) == 0)
    if (std::string utc = decoded(tags, "UTCDate"); date_rank(utc) != 0) r.date = utc;
  if (std::string site = decoded(tags, "Site"); is_url(site))
    r.site = site;
  else if (std::string url = decoded(tags, "LichessURL"); is_url(url))
    r.site = url;
  return r;
}

void encode_game_record(const GameRecord& r, std::string& out) {
  out.clear();
  put_u16(out, r.white_elo);
  put_u16(out, r.black_elo);
  out.push_back(char(r.outcome));
  out.push_back(char(r.mode));
  uint8_t number[counts::kMaxVarintBytes];
  out.append(reinterpret_cast<const char*>(number), counts::put_varint(number, r.offset));
  out.append(reinterpret_cast<const char*>(number), counts::put_varint(number, r.slice));
  for (const std::string* text : {&r.white, &r.black, &r.event, &r.date, &r.site, &r.moves})
    put_text(out, *text);
}

bool decode_game_record(std::string_view bytes, GameRecord& r) {
  if (bytes.size() < 6) return false;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const auto* const end = p + bytes.size();
  r.white_elo = uint16_t(p[0] | p[1] << 8);
  r.black_elo = uint16_t(p[2] | p[3] << 8);
  r.outcome = pgn::Outcome(p[4]);
  if (p[5] > uint8_t(GameMode::kCasual)) return false;
  r.mode = GameMode(p[5]);
  p += 6;
  uint64_t slice = 0;
  if (!counts::get_varint(p, end, r.offset) || !counts::get_varint(p, end, slice) || slice > UINT32_MAX)
    return false;
  r.slice = uint32_t(slice);
  for (std::string* text : {&r.white, &r.black, &r.event, &r.date, &r.site, &r.moves}) {
    uint64_t length = 0;
    if (!counts::get_varint(p, end, length) || uint64_t(end - p) < length) return false;
    text->assign(reinterpret_cast<const char*>(p), size_t(length));
    p += length;
  }
  return p == end;
}

namespace {
constexpr int kShortIdLength = 8;
constexpr int kShortIdShift = 17;  // 64 - 47 bits
constexpr std::string_view kBase62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}  // namespace

std::string short_game_id(uint64_t fingerprint) {
  std::string id(kShortIdLength, '0');
  uint64_t rest = fingerprint >> kShortIdShift;
  for (int i = kShortIdLength - 1; i >= 0; --i, rest /= 62) id[size_t(i)] = kBase62[rest % 62];
  return id;
}

std::optional<FingerprintRange> parse_any_game_id(std::string_view id) {
  if (id.size() == kShortIdLength) {
    uint64_t value = 0;
    for (char c : id) {
      const size_t digit = kBase62.find(c);
      if (digit == std::string_view::npos) return std::nullopt;
      value = value * 62 + digit;
    }
    if (value >> (64 - kShortIdShift) != 0) return std::nullopt;  // above 2^47: no fingerprint's
    const uint64_t first = value << kShortIdShift;
    return FingerprintRange{first, first | ((uint64_t(1) << kShortIdShift) - 1)};
  }
  const std::optional<uint64_t> fingerprint = parse_game_id(id);
  if (!fingerprint) return std::nullopt;
  return FingerprintRange{*fingerprint, *fingerprint};
}

}  // namespace bookforge::store
