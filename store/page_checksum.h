// Page checksums: every page of a store's file ends in 8 bytes that hash the rest of the page
// and its page number, written whenever the page goes to the file and checked whenever it comes
// back. SQLite checks only the structure it walks: a flipped byte inside a row, or a zeroed page
// that a lookup happens to land beside, would otherwise be read as data and answered as such.
//
// The checksums live in SQLite's reserved bytes at the end of each page (the header's byte 20):
//
//   page:  | b-tree content (page size - 8 bytes) | checksum: 8 bytes, little-endian |
//   checksum = ContentHasher(page number as 8 little-endian bytes, then the content)
//
// They are written and checked by an SQLite VFS that wraps the system's own, for the main
// database file only: WAL frames carry SQLite's own checksums, and a page is checksummed when
// a checkpoint writes it into the database file. A file is checked when its header says it is a
// bookforge store (application id 'BkFr') with 8 reserved bytes, which Store::create asks for
// before the first page is written; stores made before page checksums are read as they are.
#pragma once

#include <cstdint>
#include <span>

struct sqlite3;

namespace bookforge::store {

inline constexpr int kChecksumBytes = 8;
// 'BkFr' in the database header (offset 68), so `file` and other tools can tell a store.
inline constexpr uint32_t kApplicationId = 0x426b4672;

// The name of the VFS to open stores with (registered on first use; thread-safe).
const char* checksum_vfs_name();

// The checksum of one page (its last kChecksumBytes bytes excluded), as stored.
uint64_t page_checksum(uint32_t page_number, std::span<const unsigned char> page);

// The page whose checksum failed last on this thread (1-based), 0 for none: for messages.
uint32_t last_bad_page();

// Asks for the reserved bytes of a new, still empty database (before its first write).
bool reserve_checksum_bytes(sqlite3* db);

}  // namespace bookforge::store
