#include "store/entry_table.h"

#include <sqlite3.h>

#include <new>

#include "store/row.h"

namespace bookforge::store {
namespace {

struct EntryTable {
  sqlite3_vtab base;  // first member: SQLite hands out pointers to it
  EntryTableSource* source;
};

struct EntryCursor {
  sqlite3_vtab_cursor base;  // first member, as above
  counts::TallyEntry entry;
  sqlite3_int64 rowid = 0;
  bool eof = true;
  bool started = false;
};

int fail(sqlite3_vtab_cursor* cursor, const std::string& message) {
  auto* table = reinterpret_cast<EntryTable*>(cursor->pVtab);
  table->source->error = message;
  sqlite3_free(table->base.zErrMsg);
  table->base.zErrMsg = sqlite3_mprintf("%s", message.c_str());
  return SQLITE_ERROR;
}

// Pulls the next entry and checks the order the merge relies on.
int advance(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<EntryCursor*>(base);
  EntryTableSource* source = reinterpret_cast<EntryTable*>(base->pVtab)->source;
  counts::EntryStream* stream = source->stream;
  const counts::TallyEntry previous = cursor->entry;
  if (!stream || !stream->next(cursor->entry)) {
    cursor->eof = true;
    if (stream) {
      Status s = stream->status();
      if (!s) return fail(base, s.error().message);
    }
    return SQLITE_OK;
  }
  if (cursor->started && !counts::tally_order(previous, cursor->entry))
    return fail(base, "entry stream out of (key, move, slice) order");
  cursor->started = true;
  cursor->eof = false;
  ++cursor->rowid;
  if (source->on_row) source->on_row(uint64_t(cursor->rowid));
  return SQLITE_OK;
}

int x_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  int rc = sqlite3_declare_vtab(db, ("CREATE TABLE x(" + row_columns() + ", slices)").c_str());
  if (rc != SQLITE_OK) return rc;
  auto* table = new (std::nothrow) EntryTable{};
  if (!table) return SQLITE_NOMEM;
  table->source = static_cast<EntryTableSource*>(aux);
  *out = &table->base;
  return SQLITE_OK;
}

int x_disconnect(sqlite3_vtab* vtab) {
  sqlite3_free(vtab->zErrMsg);
  delete reinterpret_cast<EntryTable*>(vtab);
  return SQLITE_OK;
}

int x_best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  // One way to read it: the whole stream, once, in its own order.
  info->estimatedCost = 1e9;
  info->estimatedRows = 1'000'000'000;
  return SQLITE_OK;
}

int x_open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) EntryCursor{};
  if (!cursor) return SQLITE_NOMEM;
  *out = &cursor->base;
  return SQLITE_OK;
}

int x_close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<EntryCursor*>(cursor);
  return SQLITE_OK;
}

int x_filter(sqlite3_vtab_cursor* cursor, int, const char*, int, sqlite3_value**) {
  auto* c = reinterpret_cast<EntryCursor*>(cursor);
  // A stream can be read only once; a second scan (never planned for our queries) sees it empty.
  c->started = false;
  return advance(cursor);
}

int x_next(sqlite3_vtab_cursor* cursor) { return advance(cursor); }

int x_eof(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<EntryCursor*>(cursor)->eof ? 1 : 0; }

int x_column(sqlite3_vtab_cursor* cursor, sqlite3_context* context, int column) {
  const counts::TallyEntry& e = reinterpret_cast<EntryCursor*>(cursor)->entry;
  if (column == kRowColumnCount) {
    const std::string* slices = reinterpret_cast<EntryTable*>(cursor->pVtab)->source->slices;
    // Static: the blob stays as it is until the cursor moves on, and SQLite has stored the row
    // by then; a copy per row cost a few percent of a db add.
    if (slices)
      sqlite3_result_blob(context, slices->data(), int(slices->size()), SQLITE_STATIC);
    else
      sqlite3_result_null(context);
    return SQLITE_OK;
  }
  const sqlite3_int64 value = row_value(e, column);
  sqlite3_result_int64(context, value);
  return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<EntryCursor*>(cursor)->rowid;
  return SQLITE_OK;
}

const sqlite3_module& entry_module() {
  static const sqlite3_module module = [] {
    sqlite3_module m{};
    m.iVersion = 1;
    m.xCreate = nullptr;  // eponymous-only: usable by name, never CREATE VIRTUAL TABLE'd
    m.xConnect = x_connect;
    m.xBestIndex = x_best_index;
    m.xDisconnect = x_disconnect;
    m.xOpen = x_open;
    m.xClose = x_close;
    m.xFilter = x_filter;
    m.xNext = x_next;
    m.xEof = x_eof;
    m.xColumn = x_column;
    m.xRowid = x_rowid;
    return m;
  }();
  return module;
}

}  // namespace

Status register_entry_table(Connection& db, EntryTableSource* source) {
  if (sqlite3_create_module_v2(db.handle(), "entry_stream", &entry_module(), source, nullptr) != SQLITE_OK)
    return db.error("cannot register the entry_stream table");
  return ok_status();
}

}  // namespace bookforge::store
