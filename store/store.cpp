#include "store/store.h"

#include "store/page_checksum.h"
#include "store/row.h"
#include "store/slice_counts.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace bookforge::store {
namespace {

// Schema version 5's additions for the player explorer (store/player_explore.h): each game's
// slice and mode in the games table (appended last, as ALTER TABLE does in an older store, so
// that the games of a side store copy over column for column), and a table of each player's
// games, clustered by player so that a query reads a few pages rather than a page per game.
// Names match as the sources write them but for ASCII case (lichess names are case-blind).
constexpr const char* kGameKindColumns = R"sql(
  slice       INTEGER NOT NULL DEFAULT 0,
  mode        INTEGER NOT NULL DEFAULT 0)sql";
constexpr const char* kPlayerGamesTable = R"sql(
CREATE TABLE player_games (
  name         TEXT NOT NULL COLLATE NOCASE,
  white        INTEGER NOT NULL,
  fingerprint  INTEGER NOT NULL,
  slice        INTEGER NOT NULL,
  mode         INTEGER NOT NULL,
  outcome      INTEGER NOT NULL,
  opponent_elo INTEGER NOT NULL,
  date         INTEGER NOT NULL,
  moves        BLOB NOT NULL,
  PRIMARY KEY (name, white, fingerprint)
) WITHOUT ROWID;)sql";

// The tree's columns come from the counted fields (row.h).
std::string schema() {
  return R"sql(
CREATE TABLE meta (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE tree ()sql" +
         row_definitions() + R"sql(,
  slices BLOB NOT NULL,
  PRIMARY KEY (key, move)
) WITHOUT ROWID;
CREATE TABLE sources (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  size          INTEGER,
  hash          TEXT,
  games         INTEGER NOT NULL,
  filters       TEXT NOT NULL,
  max_ply       INTEGER NOT NULL,
  count_repeats INTEGER NOT NULL,
  added         TEXT NOT NULL
);
CREATE INDEX sources_by_hash ON sources (hash);
CREATE TABLE games (
  fingerprint INTEGER PRIMARY KEY,
  source      INTEGER NOT NULL,
  number      INTEGER NOT NULL,
  offset      INTEGER NOT NULL,
  white       TEXT NOT NULL,
  black       TEXT NOT NULL,
  white_elo   INTEGER NOT NULL,
  black_elo   INTEGER NOT NULL,
  result      TEXT NOT NULL,
  date        TEXT NOT NULL,
  event       TEXT NOT NULL,
  site        TEXT NOT NULL,
)sql" + std::string(kGameKindColumns) +
         R"sql(
);
)sql" + std::string(kPlayerGamesTable) +
         R"sql(
CREATE TABLE position_games (
  key         INTEGER NOT NULL,
  fingerprint INTEGER NOT NULL,
  rating      INTEGER NOT NULL,
  date        INTEGER NOT NULL,
  PRIMARY KEY (key, fingerprint)
) WITHOUT ROWID;
)sql";
}

constexpr const char* kSourceColumns = "id, name, size, hash, games, filters, max_ply, count_repeats, added";

// The rows in unsigned key order: the keys stored as non-negative integers first, then the
// negative ones (see store.h), each range read in primary-key order. With a slice filter,
// each row's counts are those of the slices it accepts, and rows with none are left out.
class TreeScan final : public counts::EntryStream {
 public:
  TreeScan(Connection& db, const counts::SliceFilter& filter) : db_(db), filter_(filter) {}

  bool next(counts::TallyEntry& entry) override {
    for (;;) {
      if (!open_) {
        if (range_ == 2 || !status_) return false;
        Result<Statement> s =
            db_.prepare("SELECT " + row_columns() + (filter_.empty() ? "" : ", slices") +
                        " FROM tree WHERE " + (range_ == 0 ? "key >= 0" : "key < 0") + " ORDER BY key, move");
        if (!s) {
          status_ = s.error();
          return false;
        }
        stmt_ = std::move(*s);
        open_ = true;
      }
      Result<bool> row = stmt_.step();
      if (!row) {
        status_ = row.error();
        return false;
      }
      if (*row) {
        read_row(stmt_, entry);
        if (filter_.empty()) return true;
        FilteredCounts filtered;
        if (!sum_slices(stmt_.column_blob(kRowColumnCount), entry, filter_, filtered)) {
          status_ = Error{db_.path() + ": damaged slices in the row of key " + std::to_string(entry.key)};
          return false;
        }
        if (filtered.counts.games == 0) continue;
        entry = filtered.counts;
        return true;
      }
      open_ = false;
      ++range_;
    }
  }

  Status status() const override { return status_; }

 private:
  Connection& db_;
  counts::SliceFilter filter_;
  Statement stmt_;
  int range_ = 0;
  bool open_ = false;
  Status status_ = ok_status();
};

SourceRecord read_source(const Statement& s) {
  SourceRecord r;
  r.id = s.column_int(0);
  r.name = s.column_text(1);
  if (!s.column_is_null(2)) r.size = uint64_t(s.column_int(2));
  if (!s.column_is_null(3)) r.hash = s.column_text(3);
  r.games = uint64_t(s.column_int(4));
  r.settings.filters = s.column_text(5);
  r.settings.max_ply = int(s.column_int(6));
  r.settings.count_repeats = s.column_int(7) != 0;
  r.added = s.column_text(8);
  return r;
}

Result<std::vector<SourceRecord>> read_sources(Statement& s) {
  std::vector<SourceRecord> out;
  for (;;) {
    Result<bool> row = s.step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(read_source(s));
  }
  s.reset();
  return out;
}

// add_count(a, b): a + b, or an error past 2^32 - 1. Counts come from TallyEntry's 32-bit fields
// and go back into them (build --from-db), so only a sum can overflow; checking it in the upsert
// costs nothing on inserts, where a table CHECK cost 10% of a bulk load.
void add_count(sqlite3_context* context, int, sqlite3_value** values) {
  const int64_t sum = sqlite3_value_int64(values[0]) + sqlite3_value_int64(values[1]);
  if (sum > int64_t(UINT32_MAX)) {
    sqlite3_result_error(context, "a count would pass 2^32 - 1, the most a tally entry holds", -1);
    return;
  }
  sqlite3_result_int64(context, sum);
}

Status register_functions(Connection& db) {
  if (sqlite3_create_function_v2(db.handle(), "add_count", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                 add_count, nullptr, nullptr, nullptr) != SQLITE_OK)
    return db.error("cannot register add_count");
  return register_slice_functions(db);
}

}  // namespace

std::string CountingSettings::describe() const {
  std::string text = "max-ply " + (max_ply > 0 ? std::to_string(max_ply) : std::string("none"));
  text += count_repeats ? ", repeats counted" : ", repeats counted once per game";
  text += ", filters: " + (filters.empty() ? std::string("none") : filters);
  return text;
}

Result<Store> Store::open(const std::string& path, bool writable) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error{path + ": no such store"};
  // Readers open read-write too when they may: only a connection that can write removes the
  // WAL's side files when the last one closes. Nothing is written unless `writable`.
  const bool can_write = writable || ::access(path.c_str(), W_OK) == 0;
  Result<Connection> db =
      Connection::open(path, can_write ? Connection::Mode::kReadWrite : Connection::Mode::kReadOnly);
  if (!db) return db.error();
  Store store(std::move(*db), false);
  if (Status s = store.check_format(); !s) return s.error();
  if (Status s = store.apply_pragmas(writable); !s) return s.error();
  if (writable)
    if (Status s = store.add_player_columns(); !s) return s.error();
  if (Status s = register_entry_table(store.db_, store.entry_source_.get()); !s) return s.error();
  if (Status s = register_functions(store.db_); !s) return s.error();
  return store;
}

Result<std::vector<std::string>> remove_orphan_side_files(const std::string& path) {
  std::vector<std::string> removed;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return removed;
  for (const char* suffix : kSideFileSuffixes) {
    const std::string side = path + suffix;
    if (!std::filesystem::exists(side, ec)) continue;
    if (!std::filesystem::remove(side, ec) && ec)
      return Error{side + ": left by a deleted store, and cannot be removed: " + ec.message()};
    removed.push_back(side);
  }
  return removed;
}

Result<Store> Store::create(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return Error{path + ": already exists"};
  if (Result<std::vector<std::string>> r = remove_orphan_side_files(path); !r) return r.error();
  Result<Connection> db = Connection::open(path, Connection::Mode::kCreate);
  if (!db) return db.error();
  Store store(std::move(*db), true);
  // No journal and no syncs while loading: the file is not visible under its final name until
  // close() has switched it to WAL and the caller has renamed it, so a crash loses nothing.
  // 64 KiB pages, the largest SQLite has: a bulk load of sorted rows ran about 15% faster with
  // 16 KiB pages than with 4 KiB, and 64 KiB took another 5% off db add once rows carried their
  // slices; the rows of one position share a page, and an explorer query stays well under a
  // millisecond (bench/db_explore.sh).
  // The page size and the checksums' reserved bytes are fixed by the first write, which
  // setting the application id makes.
  Status s = store.db_.exec("PRAGMA page_size = 65536;");
  if (s && !reserve_checksum_bytes(store.db_.handle())) s = store.db_.error("cannot reserve page checksums");
  if (s)
    s = store.db_.exec(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;"
        "PRAGMA application_id = " +
        std::to_string(kApplicationId) + ";");
  if (s) s = store.db_.exec(schema());
  if (s) s = register_entry_table(store.db_, store.entry_source_.get());
  if (s) s = register_functions(store.db_);
  if (s) s = store.set_meta("format", kFormatName);
  if (s) s = store.set_meta("schema_version", std::to_string(kSchemaVersion));
  if (s) s = store.set_meta(kGamesWithoutMovesMeta, "0");
  if (!s) return s.error();
  return store;
}

Status Store::check_format() {
  Result<std::optional<std::string>> format = meta("format");
  if (!format) return db_.error("not a bookforge store");
  if (!*format || **format != kFormatName)
    return Error{path() + ": not a bookforge store (an SQLite database of another kind)"};
  Result<std::optional<std::string>> version = meta("schema_version");
  if (!version) return version.error();
  const std::string text = version->value_or("");
  int number = 0;
  try {
    size_t used = 0;
    number = std::stoi(text, &used);
    if (used != text.size()) number = 0;
  } catch (const std::exception&) {
    number = 0;
  }
  if (number > kSchemaVersion)
    return Error{path() + ": store schema version " + text + " is newer than this bookforge reads (" +
                 std::to_string(kSchemaVersion) + "); use a newer bookforge"};
  if (number == 1 || number == 2)
    return Error{
        path() + ": made by an older bookforge (store schema version " + text + "), which kept " +
        (number == 1 ? "no counts by speed, rating band and month" : "no byte offsets of its games") +
        "; make the store again with `bookforge db add` from the same PGN files"};
  // 3 is 4 without page checksums: read and added to as it is. 4 is 5 without the player
  // explorer's columns, which an add puts in (add_player_columns).
  if (number != kSchemaVersion && number != 4 && number != 3)
    return Error{path() + ": unknown store schema version '" + text + "'"};
  return ok_status();
}

Result<bool> Store::has_player_columns() {
  if (player_columns_) return *player_columns_;
  Result<int64_t> n = db_.query_int("SELECT count(*) FROM sqlite_schema WHERE name = 'player_games'");
  if (!n) return n.error();
  player_columns_ = *n > 0;
  return *player_columns_;
}

Status Store::add_player_columns() {
  Result<bool> has = has_player_columns();
  if (!has) return has.error();
  if (*has) return ok_status();
  // The games held so far have no moves: the player explorer says how many it cannot see.
  Result<int64_t> held = db_.query_int("SELECT count(*) FROM games");
  if (!held) return held.error();
  std::string alter = "BEGIN;";
  std::string_view columns = kGameKindColumns;
  for (size_t at = 0; at < columns.size();) {
    size_t end = columns.find(',', at);
    if (end == std::string_view::npos) end = columns.size();
    alter += "ALTER TABLE games ADD COLUMN " + std::string(columns.substr(at, end - at)) + ";";
    at = end + 1;
  }
  player_columns_.reset();
  Status s = db_.exec(alter + kPlayerGamesTable);
  if (s) s = set_meta(kGamesWithoutMovesMeta, std::to_string(*held));
  Result<std::optional<std::string>> version = meta("schema_version");
  if (s && version && *version == std::optional<std::string>("4"))
    s = set_meta("schema_version", std::to_string(kSchemaVersion));
  if (s) s = db_.exec("COMMIT;");
  if (!s) {
    (void)db_.exec("ROLLBACK;");
    return s;
  }
  return ok_status();
}

Result<uint64_t> Store::games_without_moves() {
  Result<bool> has = has_player_columns();
  if (!has) return has.error();
  Result<std::optional<std::string>> value = meta(kGamesWithoutMovesMeta);
  if (!value) return value.error();
  if (*has && *value) return uint64_t(std::strtoull((*value)->c_str(), nullptr, 10));
  Result<int64_t> all = db_.query_int("SELECT count(*) FROM games");
  if (!all) return all.error();
  return uint64_t(*all);
}

Status Store::apply_pragmas(bool writable) {
  // A reader's connection may be read-write (see open()), so SQLite itself is told to refuse
  // every change through it: a reader cannot write the store by mistake.
  if (!writable) return db_.exec("PRAGMA cache_size = -16384; PRAGMA query_only = 1;");
  // WAL: readers keep reading while an add runs, and an add killed at any point leaves the
  // store as it was. FULL syncs the WAL at commit: one fsync per add.
  Status s = db_.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -65536;");
  if (!s) return s;
  Result<int64_t> wal = db_.query_int("SELECT journal_mode = 'wal' FROM pragma_journal_mode");
  if (!wal) return wal.error();
  if (!*wal) return Error{path() + ": cannot switch to WAL mode"};
  return ok_status();
}

Result<std::optional<std::string>> Store::meta(const std::string& name) {
  Result<Statement> s = db_.prepare("SELECT value FROM meta WHERE name = ?1");
  if (!s) return s.error();
  s->bind(1, name);
  Result<bool> row = s->step();
  if (!row) return row.error();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(s->column_text(0));
}

Status Store::set_meta(const std::string& name, const std::string& value) {
  Result<Statement> s = db_.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)");
  if (!s) return s.error();
  s->bind(1, name);
  s->bind(2, value);
  return s->run();
}

Result<pgn::VariantSet> Store::variants() {
  Result<std::optional<std::string>> filters = meta("filters");
  if (!filters) return filters.error();
  return pgn::variants_of_description(filters->value_or(""));
}

Result<std::optional<CountingSettings>> Store::settings() {
  Result<std::optional<std::string>> max_ply = meta("max_ply");
  if (!max_ply) return max_ply.error();
  if (!*max_ply) return std::optional<CountingSettings>();
  Result<std::optional<std::string>> filters = meta("filters");
  if (!filters) return filters.error();
  Result<std::optional<std::string>> repeats = meta("count_repeats");
  if (!repeats) return repeats.error();
  CountingSettings c;
  c.max_ply = std::atoi((*max_ply)->c_str());
  c.filters = filters->value_or("");
  c.count_repeats = repeats->value_or("0") == "1";
  return std::optional<CountingSettings>(c);
}

Status Store::set_settings(const CountingSettings& settings) {
  Status s = set_meta("max_ply", std::to_string(settings.max_ply));
  if (s) s = set_meta("filters", settings.filters);
  if (s) s = set_meta("count_repeats", settings.count_repeats ? "1" : "0");
  return s;
}

Result<std::vector<SourceRecord>> Store::sources() {
  Result<Statement> s = db_.prepare(std::string("SELECT ") + kSourceColumns + " FROM sources ORDER BY id");
  if (!s) return s.error();
  return read_sources(*s);
}

Result<std::optional<SourceRecord>> Store::find_source_by_hash(const std::string& hash) {
  Result<Statement> s = db_.prepare(std::string("SELECT ") + kSourceColumns +
                                    " FROM sources WHERE hash = ?1 ORDER BY id LIMIT 1");
  if (!s) return s.error();
  s->bind(1, hash);
  Result<std::vector<SourceRecord>> found = read_sources(*s);
  if (!found) return found.error();
  if (found->empty()) return std::optional<SourceRecord>();
  return std::optional<SourceRecord>(found->front());
}

Status Store::add_source(const SourceRecord& source) {
  Result<Statement> s = db_.prepare(
      "INSERT INTO sources (name, size, hash, games, filters, max_ply, count_repeats, added) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
  if (!s) return s.error();
  s->bind(1, source.name);
  if (source.size)
    s->bind(2, int64_t(*source.size));
  else
    s->bind_null(2);
  if (source.hash)
    s->bind(3, *source.hash);
  else
    s->bind_null(3);
  s->bind(4, int64_t(source.games));
  s->bind(5, source.settings.filters);
  s->bind(6, int64_t(source.settings.max_ply));
  s->bind(7, int64_t(source.settings.count_repeats ? 1 : 0));
  return s->run();
}

Status Store::begin() { return db_.exec("BEGIN IMMEDIATE"); }

Status Store::commit() { return db_.exec("COMMIT"); }

void Store::rollback() {
  if (db_.in_transaction()) (void)db_.exec("ROLLBACK");
}

Result<MergeCounts> Store::merge(counts::EntryStream& entries, const std::function<void(uint64_t)>& on_row) {
  // One statement reads the whole stream through the entry_stream table (store/entry_table.h).
  // Entries arrive in key order, so consecutive upserts land on the same or the next B-tree
  // leaf: each page is read and written once. ("WHERE true" tells the parser that ON CONFLICT
  // belongs to the INSERT, not to a join.) The first merge into a store made by create() finds
  // it empty, and a stream never repeats a (key, move): nothing can conflict, so a plain insert
  // does (about 10% less work).
  // The slices' blob is merged first: SET's expressions all read the row as it was.
  const std::string upsert_clause = "ON CONFLICT (key, move) DO UPDATE SET slices = " + merge_slices_call() +
                                    ", " + row_merge_assignments();
  Result<Statement> upsert =
      db_.prepare("INSERT INTO tree (" + row_columns() + ", slices) SELECT " + row_columns() +
                  ", slices FROM entry_stream WHERE true " + (created_ && !merged_ ? "" : upsert_clause));
  if (!upsert) return upsert.error();
  SlicedRows rows(entries);
  entry_source_->stream = &rows;
  entry_source_->slices = &rows.blob();
  entry_source_->error.clear();
  entry_source_->on_row = on_row;
  Status s = upsert->run();
  entry_source_->stream = nullptr;
  entry_source_->slices = nullptr;
  entry_source_->on_row = nullptr;
  merged_ = true;
  if (!s) {
    if (!entry_source_->error.empty()) return Error{path() + ": cannot merge: " + entry_source_->error};
    return s.error();
  }
  return MergeCounts{uint64_t(db_.changes())};
}

Result<std::vector<counts::TallyEntry>> Store::moves_at(uint64_t key) {
  if (!moves_at_) {
    Result<Statement> s = db_.prepare("SELECT " + row_columns() + " FROM tree WHERE key = ?1 ORDER BY move");
    if (!s) return s.error();
    moves_at_.emplace(std::move(*s));
  }
  Statement& s = *moves_at_;
  s.bind(1, key_to_db(key));
  std::vector<counts::TallyEntry> out;
  for (;;) {
    Result<bool> row = s.step();
    if (!row) return row.error();
    if (!*row) break;
    read_row(s, out.emplace_back());
  }
  s.reset();
  return out;
}

std::unique_ptr<counts::EntryStream> Store::scan(const counts::SliceFilter& filter) {
  return std::make_unique<TreeScan>(db_, filter);
}

Result<std::vector<StoredMove>> Store::moves_with_slices_at(uint64_t key) {
  if (!moves_with_slices_at_) {
    Result<Statement> s =
        db_.prepare("SELECT " + row_columns() + ", slices FROM tree WHERE key = ?1 ORDER BY move");
    if (!s) return s.error();
    moves_with_slices_at_.emplace(std::move(*s));
  }
  Statement& s = *moves_with_slices_at_;
  s.bind(1, key_to_db(key));
  std::vector<StoredMove> out;
  for (;;) {
    Result<bool> row = s.step();
    if (!row) return row.error();
    if (!*row) break;
    StoredMove& m = out.emplace_back();
    read_row(s, m.total);
    m.slices = std::string(s.column_blob(kRowColumnCount));
  }
  s.reset();
  return out;
}

Status Store::for_each_game_fingerprint(const std::function<void(uint64_t fingerprint)>& visit) {
  Result<Statement> s = db_.prepare("SELECT fingerprint FROM games");
  if (!s) return s.error();
  for (;;) {
    Result<bool> row = s->step();
    if (!row) return row.error();
    if (!*row) return ok_status();
    visit(uint64_t(s->column_int(0)));
  }
}

Result<std::vector<uint64_t>> Store::fingerprints_between(uint64_t first, uint64_t last) {
  std::vector<uint64_t> out;
  if (first > last) return out;
  // Stored as the signed integers with the same bits: unsigned order is the non-negative ones,
  // then the negative ones, so a range across 2^63 is two ranges of the key.
  constexpr uint64_t kSignBit = uint64_t(1) << 63;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  if ((first & kSignBit) == (last & kSignBit))
    ranges.push_back({first, last});
  else
    ranges = {{first, kSignBit - 1}, {kSignBit, last}};
  Result<Statement> s =
      db_.prepare("SELECT fingerprint FROM games WHERE fingerprint BETWEEN ?1 AND ?2 ORDER BY fingerprint");
  if (!s) return s.error();
  for (auto [from, to] : ranges) {
    s->bind(1, int64_t(from));
    s->bind(2, int64_t(to));
    for (;;) {
      Result<bool> row = s->step();
      if (!row) return row.error();
      if (!*row) break;
      out.push_back(uint64_t(s->column_int(0)));
    }
    s->reset();
  }
  return out;
}

Result<uint64_t> Store::add_games(GameRecordStream& games) {
  Result<Statement> insert = db_.prepare(
      "INSERT OR IGNORE INTO games (fingerprint, source, number, white, black, white_elo, black_elo, result, "
      "date, event, site, offset, slice, mode) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
      "?13, ?14)");
  if (!insert) return insert.error();
  Result<Statement> player = db_.prepare(
      "INSERT OR IGNORE INTO player_games (name, white, fingerprint, slice, mode, outcome, opponent_elo, "
      "date, moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!player) return player.error();
  uint64_t added = 0;
  for (GameRecord g; games.next(g);) {
    insert->bind(1, int64_t(g.fingerprint));
    insert->bind(2, g.source);
    insert->bind(3, int64_t(g.number));
    insert->bind(4, g.white);
    insert->bind(5, g.black);
    insert->bind(6, int64_t(g.white_elo));
    insert->bind(7, int64_t(g.black_elo));
    insert->bind(8, g.result());
    insert->bind(9, g.date);
    insert->bind(10, g.event);
    insert->bind(11, g.site);
    insert->bind(12, int64_t(g.offset));
    insert->bind(13, int64_t(g.slice));
    insert->bind(14, int64_t(g.mode));
    if (Status s = insert->run(); !s) return s.error();
    if (db_.changes() == 0) continue;  // held already
    ++added;
    // A game from a set-up position has no moves to walk: the player explorer leaves it out.
    if (g.moves.empty()) continue;
    for (bool white : {true, false}) {
      player->bind(1, white ? g.white : g.black);
      player->bind(2, int64_t(white));
      player->bind(3, int64_t(g.fingerprint));
      player->bind(4, int64_t(g.slice));
      player->bind(5, int64_t(g.mode));
      player->bind(6, int64_t(g.outcome));
      player->bind(7, int64_t(white ? g.black_elo : g.white_elo));
      player->bind(8, int64_t(date_rank(g.date)));
      player->bind_blob(9, g.moves);
      if (Status s = player->run(); !s) return s.error();
    }
  }
  if (Status s = games.status(); !s) return s.error();
  return added;
}

Status Store::add_position_games(PositionGameStream& games) {
  Result<int64_t> before = db_.query_int("SELECT EXISTS (SELECT 1 FROM position_games)");
  if (!before) return before.error();
  Result<Statement> insert = db_.prepare(
      "INSERT OR IGNORE INTO position_games (key, fingerprint, rating, date) VALUES (?1, ?2, ?3, ?4)");
  if (!insert) return insert.error();
  // With lists held before, the positions touched are noted, to trim their lists afterwards.
  if (*before)
    if (Status s = db_.exec("CREATE TEMP TABLE IF NOT EXISTS touched_keys (key INTEGER PRIMARY KEY);"
                            "DELETE FROM touched_keys;");
        !s)
      return s;
  Result<Statement> touch = *before ? db_.prepare("INSERT OR IGNORE INTO touched_keys (key) VALUES (?1)")
                                    : Result<Statement>(Statement());
  if (!touch) return touch.error();
  for (PositionGame g; games.next(g);) {
    insert->bind(1, key_to_db(g.key));
    insert->bind(2, int64_t(g.fingerprint));
    insert->bind(3, int64_t(g.rating));
    insert->bind(4, int64_t(g.date));
    if (Status s = insert->run(); !s) return s;
    if (*before) {
      touch->bind(1, key_to_db(g.key));
      if (Status s = touch->run(); !s) return s;
    }
  }
  if (Status s = games.status(); !s) return s;
  if (!*before) return ok_status();
  // The lists held before and the new games together: each position keeps the best of both
  // (a game dropped before never returns, since the games that beat it stay or are beaten).
  return db_.exec(
      "DELETE FROM position_games WHERE (key, fingerprint) IN (SELECT key, fingerprint FROM ("
      "SELECT key, fingerprint, "
      "row_number() OVER (PARTITION BY key ORDER BY rating DESC, fingerprint) AS by_rating, "
      "row_number() OVER (PARTITION BY key ORDER BY date DESC, fingerprint) AS by_date "
      "FROM position_games WHERE key IN (SELECT key FROM touched_keys)) "
      "WHERE by_rating > " +
      std::to_string(kTopGames) + " AND by_date > " + std::to_string(kRecentGames) +
      ");"
      "DELETE FROM touched_keys;");
}

Status Store::copy_games_from(const std::string& path) {
  // The path as a bound parameter: no quoting of its characters.
  Result<Statement> attach = db_.prepare("ATTACH DATABASE ?1 AS side");
  if (!attach) return attach.error();
  attach->bind(1, path);
  if (Status s = attach->run(); !s) return s;
  // Into empty tables of the same definition SQLite copies the records as they are.
  return db_.exec(
      "BEGIN; INSERT INTO games SELECT * FROM side.games; "
      "INSERT INTO player_games SELECT * FROM side.player_games; "
      "INSERT INTO position_games SELECT * FROM side.position_games; COMMIT; DETACH DATABASE side;");
}

namespace {

constexpr const char* kGameColumns =
    "g.fingerprint, g.source, g.number, g.white, g.black, g.white_elo, g.black_elo, g.result, g.date, "
    "g.event, g.site, g.offset";

// With the player explorer's slice and mode (schema version 5) when `with_kind`.
std::string game_columns(bool with_kind) {
  return std::string(kGameColumns) + (with_kind ? ", g.slice, g.mode" : "");
}

GameMode mode_of_column(int64_t value) {
  return value == int64_t(GameMode::kRated)    ? GameMode::kRated
         : value == int64_t(GameMode::kCasual) ? GameMode::kCasual
                                               : GameMode::kUnknown;
}

GameRecord read_game(const Statement& s, bool with_kind) {
  GameRecord g;
  g.fingerprint = uint64_t(s.column_int(0));
  g.source = s.column_int(1);
  g.number = uint64_t(s.column_int(2));
  g.white = s.column_text(3);
  g.black = s.column_text(4);
  g.white_elo = uint16_t(s.column_int(5));
  g.black_elo = uint16_t(s.column_int(6));
  const std::string result = s.column_text(7);
  g.outcome = result == "1-0"       ? pgn::Outcome::kWhiteWins
              : result == "0-1"     ? pgn::Outcome::kBlackWins
              : result == "1/2-1/2" ? pgn::Outcome::kDraw
                                    : pgn::Outcome::kUnknown;
  g.date = s.column_text(8);
  g.event = s.column_text(9);
  g.site = s.column_text(10);
  g.offset = uint64_t(s.column_int(11));
  if (with_kind) {
    g.slice = uint32_t(s.column_int(12));
    g.mode = mode_of_column(s.column_int(13));
  } else {
    g.mode = mode_of_event(g.event);  // a store made before version 5: as its add would have
  }
  return g;
}

Result<std::vector<GameRecord>> read_games(Statement& s, bool with_kind) {
  std::vector<GameRecord> out;
  for (;;) {
    Result<bool> row = s.step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(read_game(s, with_kind));
  }
  s.reset();
  return out;
}

}  // namespace

Result<std::vector<GameRecord>> Store::games_at(uint64_t key, GameOrder order) {
  const std::string by = order == GameOrder::kTopRated ? "p.rating DESC" : "p.date DESC";
  const int limit = order == GameOrder::kTopRated ? kTopGames : kRecentGames;
  Result<bool> with_kind = has_player_columns();
  if (!with_kind) return with_kind.error();
  Result<Statement> s = db_.prepare(std::string("SELECT ") + game_columns(*with_kind) +
                                    " FROM position_games p JOIN games g ON g.fingerprint = p.fingerprint "
                                    "WHERE p.key = ?1 ORDER BY " +
                                    by + ", p.fingerprint LIMIT " + std::to_string(limit));
  if (!s) return s.error();
  s->bind(1, key_to_db(key));
  return read_games(*s, *with_kind);
}

Result<std::optional<GameRecord>> Store::game(uint64_t fingerprint) {
  Result<bool> with_kind = has_player_columns();
  if (!with_kind) return with_kind.error();
  Result<Statement> s = db_.prepare(std::string("SELECT ") + game_columns(*with_kind) +
                                    " FROM games g WHERE g.fingerprint = ?1");
  if (!s) return s.error();
  s->bind(1, int64_t(fingerprint));
  Result<std::vector<GameRecord>> found = read_games(*s, *with_kind);
  if (!found) return found.error();
  if (found->empty()) return std::optional<GameRecord>();
  return std::optional<GameRecord>(found->front());
}

Result<std::vector<PlayerGame>> Store::games_of_player(const std::string& name, bool as_white) {
  Result<bool> has = has_player_columns();
  if (!has) return has.error();
  if (!*has)
    return Error{
        path() +
        ": made before the player explorer (store schema version 4 or older): the next `bookforge db "
        "add` to it adds what the explorer needs, for the games it adds; make the store again from "
        "the same PGN files to include every game"};
  Result<Statement> s = db_.prepare(
      "SELECT fingerprint, slice, mode, outcome, opponent_elo, date, moves FROM player_games WHERE name = ?1 "
      "AND "
      "white = ?2");
  if (!s) return s.error();
  s->bind(1, name);
  s->bind(2, int64_t(as_white));
  std::vector<PlayerGame> out;
  for (;;) {
    Result<bool> row = s->step();
    if (!row) return row.error();
    if (!*row) break;
    PlayerGame g;
    g.fingerprint = uint64_t(s->column_int(0));
    g.slice = uint32_t(s->column_int(1));
    g.mode = mode_of_column(s->column_int(2));
    const int64_t outcome = s->column_int(3);
    g.outcome = outcome >= 0 && outcome <= int64_t(pgn::Outcome::kUnknown) ? pgn::Outcome(outcome)
                                                                           : pgn::Outcome::kUnknown;
    g.opponent_elo = uint16_t(s->column_int(4));
    g.date = uint32_t(s->column_int(5));
    g.moves = std::string(s->column_blob(6));
    out.push_back(std::move(g));
  }
  return out;
}

Result<std::vector<PlayerName>> Store::players_with_prefix(const std::string& prefix, int64_t limit) {
  Result<bool> has = has_player_columns();
  if (!has) return has.error();
  if (!*has) return std::vector<PlayerName>();  // games_of_player says why, when a player is asked
  // [prefix, prefix + 0xff) under NOCASE holds every name starting with the prefix: no UTF-8
  // byte is 0xff. player_games' names have that collation, so SQLite reads a range of its key.
  // Each game is there under both players; a player's games are their rows (both colours).
  Result<Statement> s = db_.prepare(R"sql(
SELECT name, count(*) AS games FROM player_games WHERE name >= ?1 AND name < ?2
GROUP BY name ORDER BY games DESC, name LIMIT ?3)sql");
  if (!s) return s.error();
  s->bind(1, prefix);
  s->bind(2, prefix + "\xff");
  s->bind(3, limit);
  std::vector<PlayerName> out;
  for (;;) {
    Result<bool> row = s->step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back({s->column_text(0), uint64_t(s->column_int(1))});
  }
  return out;
}

Result<std::optional<int>> Store::game_plies() {
  Result<std::optional<std::string>> value = meta("game_plies");
  if (!value) return value.error();
  if (!*value) return std::optional<int>();
  return std::optional<int>(std::atoi((*value)->c_str()));
}

Status Store::set_game_plies(int plies) { return set_meta("game_plies", std::to_string(plies)); }

Result<int64_t> Store::newest_source_id() {
  return db_.query_int("SELECT coalesce(max(id), 0) FROM sources");
}

Result<TreeStats> Store::stats() {
  TreeStats t;
  Result<int64_t> moves = db_.query_int("SELECT count(*) FROM tree");
  if (!moves) return moves.error();
  Result<int64_t> positions = db_.query_int("SELECT count(*) FROM (SELECT key FROM tree GROUP BY key)");
  if (!positions) return positions.error();
  Result<int64_t> games = db_.query_int("SELECT coalesce(sum(games), 0) FROM sources");
  if (!games) return games.error();
  Result<std::vector<SourceRecord>> list = sources();
  if (!list) return list.error();
  t.moves = uint64_t(*moves);
  t.positions = uint64_t(*positions);
  t.games = uint64_t(*games);
  t.sources = std::move(*list);
  return t;
}

Status Store::check_integrity() {
  // A failed statement names the file and, for damage, says so (store/sqlite.h).
  Result<Statement> check = db_.prepare("PRAGMA quick_check");
  if (!check) return check.error();
  Result<bool> row = check->step();
  if (!row) return row.error();
  const std::string verdict = *row ? check->column_text(0) : std::string("no answer");
  if (verdict != "ok") return Error{path() + ": damaged store: " + verdict};
  return ok_status();
}

Status Store::close() {
  moves_at_.reset();  // a connection with a live statement would not close
  if (created_) {
    Status s = db_.exec("PRAGMA journal_mode = WAL;");
    if (!s) return s;
  }
  return db_.close();
}

}  // namespace bookforge::store
