// The SQLite tree: full statistics for every (position, move) ever added, growing file by
// file without re-reading old files. One SQLite database with six tables:
//
//   meta     (name TEXT PRIMARY KEY, value TEXT)                      WITHOUT ROWID
//            format = "bookforge-tree", schema_version (kSchemaVersion), and, once something was added,
//            filters / max_ply / count_repeats: how the counts were made.
//   tree     (key, move, white, draws, black, games, rating_sum, opponent_rating_sum, rated,
//            opponents_rated, first_ply, slices)
//            PRIMARY KEY (key, move)                                  WITHOUT ROWID
//            (the counts' columns come from the counted fields: store/row.h; slices
//            holds the same counts per slice of the games: store/slice_counts.h)
//   sources  (id, name, size, hash, games, filters, max_ply, count_repeats, added)
//   games    (fingerprint INTEGER PRIMARY KEY, source, number, white, black, white_elo, black_elo,
//             result, date, event, site, offset, slice, mode)
//            every game added, by its fingerprint (counts/game_fingerprint.h, stored as the signed
//            integer with the same bits), so a copy of it in a later add is counted once; with
//            its record (store/game_record.h): `db game` finds it by source and number
//   position_games (key, fingerprint, rating, date) PRIMARY KEY (key, fingerprint) WITHOUT ROWID
//            the top and recent games of each position up to meta's game_plies
//   player_games (name COLLATE NOCASE, white, fingerprint, slice, mode, outcome, opponent_elo,
//            date, moves) PRIMARY KEY (name, white, fingerprint) WITHOUT ROWID
//            each game twice, under each player, with what the player explorer walks
//
// Keys are stored as the signed integers with the same 64 bits (store/row.h), so unsigned
// key order is "key >= 0 ascending, then key < 0 ascending"; scans read it as two ranges.
//
// A row holds the counts of a book::TallyEntry (see counts/entry.h for their meaning): white,
// draws, black only count games with a result (games >= white + draws + black); rating_sum
// is the mover's Elo summed over the `rated` games where the mover had one, so
// rating_sum / rated is an honest average; first_ply is a game ply, its parity the side to move.
// Counts are 64-bit in SQLite but kept within 32 bits, the most a TallyEntry holds: a merge whose
// sums would pass that fails (and its add is rolled back) instead of wrapping.
//
// Crash safety: an existing store is changed in WAL mode inside one transaction per `db add`;
// a new store is written under a temporary name and linked into place (see store/add.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/entry.h"
#include "counts/slice.h"
#include "store/entry_table.h"
#include "store/game_record.h"
#include "store/sqlite.h"

namespace bookforge::store {

// 2: counts by slice (the tree's slices column) and the opponents' rating sums.
// 3: the games' byte offsets in their sources (games.offset).
// 4: page checksums (store/page_checksum.h); a store of version 3 is read without them.
// 5: the games' slice and mode, and player_games (the player explorer); an add brings a store
//    of version 4 (or 3, still without checksums) up to them.
inline constexpr int kSchemaVersion = 5;
// meta: how many games a store held when it was brought up to version 5 (store/player_explore.h).
inline constexpr const char* kGamesWithoutMovesMeta = "games_without_moves";
inline constexpr const char* kFormatName = "bookforge-tree";

// How the counts of a store were made; every later add must use the same (unless forced).
struct CountingSettings {
  std::string filters;  // pgn::GameFilter::describe()
  int max_ply = 0;      // 0 = no limit
  bool count_repeats = false;

  bool operator==(const CountingSettings&) const = default;
  std::string describe() const;  // one line for messages
};

struct SourceRecord {
  int64_t id = 0;
  std::string name;                 // as given on the command line; "-" for standard input
  std::optional<uint64_t> size;     // absent for standard input
  std::optional<std::string> hash;  // hash of the decompressed content (base/content_hash.h)
  uint64_t games = 0;               // accepted games it added
  CountingSettings settings;
  std::string added;  // UTC, "YYYY-MM-DDTHH:MM:SSZ"
};

struct TreeStats {
  uint64_t positions = 0;  // distinct keys
  uint64_t moves = 0;      // rows
  uint64_t games = 0;      // accepted games added over all sources
  std::vector<SourceRecord> sources;
};

// One row of the tree: its totals and its counts per slice (store/slice_counts.h).
struct StoredMove {
  counts::TallyEntry total;
  std::string slices;
};

// What the player explorer walks of a game, from the player's side (player_games).
struct PlayerGame {
  uint64_t fingerprint = 0;
  uint32_t slice = 0;
  GameMode mode = GameMode::kUnknown;
  pgn::Outcome outcome = pgn::Outcome::kUnknown;
  uint16_t opponent_elo = 0;
  uint32_t date = 0;  // date_rank
  std::string moves;  // as GameRecord::moves
};

// A player's name as stored, with their games (as White and as Black): the player explorer's
// name suggestions.
struct PlayerName {
  std::string name;
  uint64_t games = 0;
};

struct MergeCounts {
  uint64_t entries = 0;  // rows merged (inserted or added to)
};

// The side files SQLite keeps beside a database at PATH: PATH-wal, PATH-shm, PATH-journal.
inline constexpr const char* kSideFileSuffixes[] = {"-wal", "-shm", "-journal"};

// SQLite's side files of a database at `path` (kSideFileSuffixes) when no database is there:
// left by a store deleted while a process (a `bookforge serve`, say) still had it open. A new
// store linked in under that name would meet them, and SQLite would replay the old store's log
// into it. Removes them and answers the names removed; nothing else has them by that name.
Result<std::vector<std::string>> remove_orphan_side_files(const std::string& path);

class Store {
 public:
  // An existing store; checks that it is a bookforge store of a schema version this build reads.
  static Result<Store> open(const std::string& path, bool writable);
  // A new store at `path`, which must not exist yet. Meant for a file under a temporary name:
  // it is written without a journal (fast bulk load) and switched to WAL by close().
  static Result<Store> create(const std::string& path);

  Store(Store&&) noexcept = default;
  Store& operator=(Store&&) noexcept = default;

  const std::string& path() const { return db_.path(); }

  // The settings recorded by the first add; nullopt for a store nothing was added to.
  Result<std::optional<CountingSettings>> settings();
  Status set_settings(const CountingSettings& settings);

  Result<std::vector<SourceRecord>> sources();
  Result<std::optional<SourceRecord>> find_source_by_hash(const std::string& hash);
  // Records a source; `added` is filled in by the store (the current UTC time).
  Status add_source(const SourceRecord& source);

  // One write transaction: BEGIN IMMEDIATE takes the write lock at once.
  Status begin();
  Status commit();
  void rollback();

  // Adds the counts of each entry of the stream (ascending (key, move, slice) order: one entry
  // per slice of a (key, move)) to its row and its slices, inserting rows not present yet. A count that would
  // pass 2^32 - 1, the most a TallyEntry can carry, fails the merge (the caller rolls back). `on_row`, if
  // set, sees each row as SQLite reads it (store/entry_table.h).
  Result<MergeCounts> merge(counts::EntryStream& entries,
                            const std::function<void(uint64_t row)>& on_row = {});

  // The rows of one position, in move order.
  Result<std::vector<counts::TallyEntry>> moves_at(uint64_t key);
  // The same with their slices.
  Result<std::vector<StoredMove>> moves_with_slices_at(uint64_t key);
  // Every row in ascending (key, move) order, as the rules consume a tally's merged stream;
  // with a filter, each row's counts over the slices it accepts (rows with none left out).
  // The stream borrows the store's connection: use it before the store goes away.
  std::unique_ptr<counts::EntryStream> scan(const counts::SliceFilter& filter = {});

  // The fingerprints of the games held in [first, last] (as unsigned numbers), ascending; a
  // range of the games' primary key when both ends share their top bit, as a short game id's
  // range does (store/game_record.h), and read in two ranges otherwise.
  Result<std::vector<uint64_t>> fingerprints_between(uint64_t first, uint64_t last);
  // The fingerprints of every game added (counts/game_fingerprint.h), in no particular order.
  Status for_each_game_fingerprint(const std::function<void(uint64_t fingerprint)>& visit);
  // Records games as added (sources already recorded, ordered by fingerprint as stored);
  // returns how many were new (a fingerprint already there is left as it is).
  Result<uint64_t> add_games(GameRecordStream& games);
  // Adds games to the top and recent lists of their positions, each list keeping its best
  // (store/game_record.h). `games` in (key, fingerprint) order as stored.
  Status add_position_games(PositionGameStream& games);
  // Copies the games and position lists of the store at `path` into this one's (empty) tables,
  // record by record as stored. Outside a transaction.
  Status copy_games_from(const std::string& path);
  // The top-rated or the most recent games of a position, best first (store/game_record.h).
  enum class GameOrder { kTopRated, kRecent };
  Result<std::vector<GameRecord>> games_at(uint64_t key, GameOrder order);
  Result<std::optional<GameRecord>> game(uint64_t fingerprint);
  // The player explorer's games (store/player_explore.h): every game `name` played as White
  // (else Black), the name matched as stored but for ASCII case. An error for a store made
  // before schema version 5 that no add has brought up to it.
  Result<std::vector<PlayerGame>> games_of_player(const std::string& name, bool as_white);
  // The players whose name starts with `prefix` (ASCII case ignored, as games_of_player
  // matches), most games first (ties by name), at most `limit`; names that differ only in
  // ASCII case are one player, under one of their spellings. Reads a range of player_games,
  // so the cost grows with the matching games, not the store.
  Result<std::vector<PlayerName>> players_with_prefix(const std::string& prefix, int64_t limit);
  // Games the player explorer cannot walk: those a store made before schema version 5 held
  // when an add brought it up to 5 (they have no moves); every game before that.
  Result<uint64_t> games_without_moves();
  // The variants the store's games were added with (db add --variant): standard chess for a
  // store that names none.
  Result<pgn::VariantSet> variants();
  // Plies of a game whose positions keep top and recent games; nullopt before the first add.
  Result<std::optional<int>> game_plies();
  Status set_game_plies(int plies);
  // The id of the source recorded last (0 for none): add_source's id.
  Result<int64_t> newest_source_id();

  Result<TreeStats> stats();

  // SQLite's quick_check over the whole file: an error naming the store and the first problem
  // when a page is damaged (every page is read once).
  Status check_integrity();

  // For a store made by create(): switches it to WAL mode, so the renamed file behaves like
  // every other store. Then closes the connection.
  Status close();

 private:
  Store(Connection db, bool created)
      : db_(std::move(db)), created_(created), entry_source_(std::make_unique<EntryTableSource>()) {}
  Status check_format();
  Status apply_pragmas(bool writable);
  Result<bool> has_player_columns();
  // Brings a store of schema version 3 or 4 up to the player explorer's columns.
  Status add_player_columns();
  Result<std::optional<std::string>> meta(const std::string& name);
  Status set_meta(const std::string& name, const std::string& value);

  Connection db_;
  bool created_ = false;
  bool merged_ = false;                             // merge() ran on this connection
  std::unique_ptr<EntryTableSource> entry_source_;  // what merge() points entry_stream at
  std::optional<Statement> moves_at_;               // prepared once: explore runs it per query
  std::optional<Statement> moves_with_slices_at_;
  std::optional<bool> player_columns_;  // has_player_columns(), asked once
};

}  // namespace bookforge::store
