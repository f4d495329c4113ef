#include "store/game_record.h"

#include "pgn/tag_value.h"

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

GameRecord game_record(const pgn::ReplayedGame& game, uint64_t fingerprint, int64_t input) {
  GameRecord r;
  r.fingerprint = fingerprint;
  r.source = input;
  r.number = game.number_in_file;
  r.offset = game.offset_in_file;
  r.white_elo = game.white_elo;
  r.black_elo = game.black_elo;
  r.outcome = game.outcome;
  if (!game.tags) return r;
  const pgn::TagList& tags = *game.tags;
  r.white = decoded(tags, "White");
  r.black = decoded(tags, "Black");
  r.event = decoded(tags, "Event");
  r.date = decoded(tags, "Date");
  if (date_rank(r.date) == 0)
    if (std::string utc = decoded(tags, "UTCDate"); date_rank(utc) != 0) r.date = utc;
  if (std::string site = decoded(tags, "Site"); is_url(site))
    r.site = site;
  else if (std::string url = decoded(tags, "LichessURL"); is_url(url))
    r.site = url;
  return r;
}

}  // namespace bookforge::store
