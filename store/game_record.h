// What the store keeps of a game so that the explorer can show it and `db game` can find it
// again: the players, ratings, result, date and event, and where it lies -- its Site when that
// is a URL (or its LichessURL), and always its source, its number in that source and the byte
// offset where it starts there (in the decompressed content).
//
// Top and recent games: for every position up to a ply limit, the store keeps the kTopGames
// highest-rated and the kRecentGames most recent games that reached it (a game can be both).
// A game's rating is the mean of WhiteElo and BlackElo when both are known, else 0 (it ranks
// below every game rated on both sides); its date is Date (or UTCDate) as yyyymmdd, unknown
// parts 0. Ties go to the smaller fingerprint (as stored: signed), so the lists do not depend on
// reading order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "pgn/game.h"

namespace bookforge::store {

inline constexpr int kTopGames = 4;
inline constexpr int kRecentGames = 4;
// Positions up to this many plies from a game's start keep their top and recent games. 12 keeps
// db add of the pgnmentor files within a quarter more time and a tenth more store; 20 costs
// about 40% more time (measured with bench/alternate.py).
inline constexpr int kDefaultGamePlies = 12;

// Rated or casual, as lichess's Event tag says ("Rated Blitz game", "Casual Rapid game");
// unknown for every other event (an over-the-board tournament, say).
enum class GameMode : uint8_t { kUnknown = 0, kRated = 1, kCasual = 2 };
GameMode mode_of_event(std::string_view event);

struct GameRecord {
  uint64_t fingerprint = 0;  // the game's id (counts/game_fingerprint.h)
  int64_t source = 0;        // sources.id once recorded; while reading, the input's index
  uint64_t number = 0;       // 1-based, in its source
  uint64_t offset = 0;       // of its first byte in its source (decompressed)
  std::string white, black, event;
  std::string date;  // as in the tag, e.g. "2019.03.??"
  std::string site;  // a URL where the game can be seen, or empty
  uint16_t white_elo = 0, black_elo = 0;
  pgn::Outcome outcome = pgn::Outcome::kUnknown;
  // For the player explorer (store/player_explore.h): the game's slice (counts/slice.h), its
  // mode, and the moves it was counted with (the first max-ply, Polyglot-encoded, u16
  // little-endian each), replayed from the standard start; empty for a game from a set-up
  // position, which the player explorer does not walk.
  uint32_t slice = 0;
  GameMode mode = GameMode::kUnknown;
  std::string moves;

  // "1-0", "1/2-1/2", "0-1" or "*".
  std::string result() const;
};

// One game that reached a position, with what it is ranked by.
struct PositionGame {
  uint64_t key = 0;
  uint64_t fingerprint = 0;
  uint32_t date = 0;    // yyyymmdd, unknown parts 0
  uint16_t rating = 0;  // mean Elo of both players, or 0
};

// Records and position games handed over one at a time, in the order they are stored in.
template <class Item>
class ItemStream {
 public:
  virtual ~ItemStream() = default;
  // The next item; false at the end or when an error stopped the stream (see status()).
  virtual bool next(Item& item) = 0;
  // Why next() returned false: ok at the end, the error otherwise.
  virtual Status status() const = 0;
};
using GameRecordStream = ItemStream<GameRecord>;
using PositionGameStream = ItemStream<PositionGame>;

// The record of a game as read (its tags valid during on_game only).
GameRecord game_record(const pgn::ReplayedGame& game, uint64_t fingerprint, int64_t input);
// "2019.03.??" -> 20190300; 0 when the year is unknown.
uint32_t date_rank(std::string_view date);
uint16_t rating_rank(uint16_t white_elo, uint16_t black_elo);

// The 8-character id the explorer's lichess-shaped answers give a game, as lichess's ids look
// ([0-9A-Za-z]{8}): the top 47 bits of its fingerprint in base 62 (2^47 < 62^8), most
// significant digit first. An id therefore stands for a range of 2^17 fingerprints; two stored
// games share one with odds about n^2 / 2^48 for n games (1 in 1,700 for 400k games), which a
// lookup sees (store/explore.h: stored_fingerprints) and reports.
std::string short_game_id(uint64_t fingerprint);
// The fingerprints an id names: one for 16 hex digits (db explore's ids), the range of a
// short_game_id for 8 characters; nullopt for anything else.
struct FingerprintRange {
  uint64_t first = 0, last = 0;
};
std::optional<FingerprintRange> parse_any_game_id(std::string_view id);

// A record's bytes as spilled and as a set of counts keeps them (store/set_games.h): both Elos
// (u16 little-endian), the outcome (u8), the mode (u8), the offset and the slice (varints), then
// white, black, event, date, site and moves, each a varint length and its bytes. The
// fingerprint, source and number are kept beside.
void encode_game_record(const GameRecord& record, std::string& out);
// False when `bytes` are not exactly one record's.
bool decode_game_record(std::string_view bytes, GameRecord& record);

}  // namespace bookforge::store
