// What a set of counts made for a store (`count --for store`, counts/count_to_set.h) keeps of its
// games beyond their counts, so that `db add --from-counts` (store/add_from_counts.h) makes the
// store `db add` makes from the same PGN: every game's record, and the top and recent games of
// every position up to the set's game plies (store/game_record.h), each already reduced to its
// lists by the count (store/game_references.h) -- two files beside the ranges, written before
// the game list that completes the set:
//
//   DIR/games.records     one item per game counted, by fingerprint
//   DIR/games.positions   one item per (position, game) of the positions' lists
//
// Both are framed files (base/framed_file.h: magic "BFSTRECS" or "BFSTPOSN", version
// kSetGamesVersion, a text header, the items, their count, an end magic, a checksum). A set is
// not cut into key ranges for them: one SQLite writer loads them in one pass, in the order the
// store keeps them, and merging every set's file is a k-way merge either way. Their header, one
// line each ("name value", base/framed_file.h):
//
//   set 0123456789abcdef   the set's id (counts::CountsHeader::set_id): another set's are refused
//   game_plies 12          positions at plies below this keep their games (db add --game-plies)
//   input SIZE GAMES       (games.positions only: the games are known once the records are
//                          written) per input, in the counts header's order: the size of the file
//                          as found ("-" for standard input), which db add records as its
//                          source's size, and the games counted from its part, which its source
//                          record counts
//
// games.records, ascending by fingerprint as stored (signed); of a game read several times, the
// first copy by (input, number in the input), as db add keeps it -- also of a game left out with
// --skip-games (marked so), so that loading can tell whether the copy counted is the one db add
// would count:
//
//   varint  the fingerprint less the previous one's (as u64; the first's from 0)
//   varint  2 x the input (its index in the header), + 1 if the game was left out
//   varint  the game's number in the input (counted from the input's start, also with --part)
//   varint  length L, then L bytes: the record (encode_game_record, store/game_record.h)
//
// games.positions, ascending by (key, fingerprint) as stored (signed):
//
//   varint  the key less the previous item's (as u64; the first's from 0)
//   8       the fingerprint, u64 little-endian
//   4       the game's date rank, u32 little-endian (date_rank)
//   2       its rating rank, u16 little-endian (rating_rank)
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/count_to_set.h"
#include "store/game_record.h"
#include "store/game_references.h"

namespace bookforge::store {

// 2: records with the game's slice, mode and moves (the player explorer's).
inline constexpr uint32_t kSetGamesVersion = 2;
inline constexpr const char* kSetRecordsFile = "games.records";
inline constexpr const char* kSetPositionsFile = "games.positions";

struct SetGamesHeader {
  struct Input {
    std::optional<uint64_t> file_size;  // absent for standard input
    uint64_t games = 0;
  };
  uint64_t set_id = 0;
  int game_plies = 0;
  std::vector<Input> inputs;

  std::string text() const;
  // Errors name `file`.
  static Result<SetGamesHeader> parse(std::string_view text, const std::string& file);
};

// The store's part of `count --for store`: collects the games' records and position lists as
// the set is read (a GameReferences within `memory`), counts the games each input adds, and
// writes the two files.
class SetGamesWriter final : public counts::SetExtras {
 public:
  SetGamesWriter(int game_plies, uint64_t memory, int workers, std::string tmp_dir);
  ~SetGamesWriter() override;

  pgn::SinkFactory wrap_read(pgn::SinkFactory inner, const std::vector<std::string>& inputs) override;
  pgn::SinkFactory wrap_counted(pgn::SinkFactory inner, const std::vector<std::string>& inputs) override;
  Result<uint64_t> write(const std::string& dir, const counts::CountsHeader& header,
                         const std::vector<uint64_t>& skipped) override;

 private:
  class CountingSink;

  int game_plies_;
  GameReferences references_;
  std::deque<std::unique_ptr<CountingSink>> counting_;
};

// A set's two files, their headers checked against each other and against the set's id (the
// header is games.positions'); an error names the folder and the file (a set counted for a book,
// or by a bookforge before these files, has none).
struct SetGames {
  std::string dir;
  SetGamesHeader header;
};
Result<SetGames> open_set_games(const std::string& dir, uint64_t set_id);

// The items of a set's files, each read once and checked as read (an error names the file).
// A record's source is its input's index in the set; skipped() tells whether the record's game
// was left out with --skip-games.
class SetRecordsReader : public GameRecordStream {
 public:
  virtual bool skipped() const = 0;
};
Result<std::unique_ptr<SetRecordsReader>> read_set_records(const SetGames& set);
Result<std::unique_ptr<PositionGameStream>> read_set_positions(const SetGames& set);

}  // namespace bookforge::store
