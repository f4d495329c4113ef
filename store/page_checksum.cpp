#include "store/page_checksum.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/content_hash.h"
#include "base/little_endian.h"

namespace bookforge::store {
namespace {

constexpr const char* kVfsName = "bookforge-checksum";

thread_local uint32_t bad_page = 0;

// One open file: ours, followed in the same allocation by the wrapped VFS's own file object.
struct ChecksumFile {
  sqlite3_file base;
  sqlite3_file* real;
  bool main_db;
  bool checked;   // the header says: a bookforge store with checksums
  int page_size;  // from the header; 0 before the header was seen
};

sqlite3_vfs* root_vfs(sqlite3_vfs* vfs) { return static_cast<sqlite3_vfs*>(vfs->pAppData); }

uint32_t read_be32(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

// The database header (the first 100 bytes of page 1) decides whether pages carry checksums.
void read_header(ChecksumFile& f, const unsigned char* header) {
  if (std::memcmp(header, "SQLite format 3", 16) != 0) return;
  const int size = int(header[16]) << 8 | int(header[17]);
  f.page_size = size == 1 ? 65536 : size;
  f.checked = header[20] == kChecksumBytes && read_be32(header + 68) == kApplicationId;
}

bool whole_page(const ChecksumFile& f, int amount, sqlite3_int64 offset) {
  return f.checked && amount == f.page_size && offset % f.page_size == 0;
}

uint32_t page_number(const ChecksumFile& f, sqlite3_int64 offset) {
  return uint32_t(offset / f.page_size) + 1;
}

ChecksumFile& as_checksum(sqlite3_file* file) { return *reinterpret_cast<ChecksumFile*>(file); }
sqlite3_file* real(sqlite3_file* file) { return as_checksum(file).real; }

int file_close(sqlite3_file* file) { return real(file)->pMethods->xClose(real(file)); }

int file_read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
  ChecksumFile& f = as_checksum(file);
  const int rc = f.real->pMethods->xRead(f.real, buffer, amount, offset);
  if (rc != SQLITE_OK || !f.main_db) return rc;
  const auto* bytes = static_cast<const unsigned char*>(buffer);
  if (offset == 0 && amount >= 100) read_header(f, bytes);
  if (!whole_page(f, amount, offset)) return rc;
  const std::span<const unsigned char> page(bytes, size_t(amount));
  const uint32_t number = page_number(f, offset);
  if (page_checksum(number, page) != load_le(bytes + amount - kChecksumBytes)) {
    bad_page = number;
    return SQLITE_IOERR_DATA;
  }
  return rc;
}

int file_write(sqlite3_file* file, const void* buffer, int amount, sqlite3_int64 offset) {
  ChecksumFile& f = as_checksum(file);
  if (!f.main_db) return f.real->pMethods->xWrite(f.real, buffer, amount, offset);
  const auto* bytes = static_cast<const unsigned char*>(buffer);
  if (offset == 0 && amount >= 100) read_header(f, bytes);
  if (!whole_page(f, amount, offset)) return f.real->pMethods->xWrite(f.real, buffer, amount, offset);
  // A copy: the buffer is SQLite's (the page cache's, or a WAL frame's whose own checksum
  // covers the bytes as they are).
  thread_local std::vector<unsigned char> page;
  page.assign(bytes, bytes + amount);
  store_le(page.data() + amount - kChecksumBytes, page_checksum(page_number(f, offset), page));
  return f.real->pMethods->xWrite(f.real, page.data(), amount, offset);
}

int file_truncate(sqlite3_file* file, sqlite3_int64 size) {
  return real(file)->pMethods->xTruncate(real(file), size);
}
int file_sync(sqlite3_file* file, int flags) { return real(file)->pMethods->xSync(real(file), flags); }
int file_size(sqlite3_file* file, sqlite3_int64* size) {
  return real(file)->pMethods->xFileSize(real(file), size);
}
int file_lock(sqlite3_file* file, int lock) { return real(file)->pMethods->xLock(real(file), lock); }
int file_unlock(sqlite3_file* file, int lock) { return real(file)->pMethods->xUnlock(real(file), lock); }
int file_reserved(sqlite3_file* file, int* out) {
  return real(file)->pMethods->xCheckReservedLock(real(file), out);
}
int file_control(sqlite3_file* file, int op, void* arg) {
  return real(file)->pMethods->xFileControl(real(file), op, arg);
}
int file_sector_size(sqlite3_file* file) { return real(file)->pMethods->xSectorSize(real(file)); }
int file_device(sqlite3_file* file) { return real(file)->pMethods->xDeviceCharacteristics(real(file)); }
int file_shm_map(sqlite3_file* file, int region, int size, int extend, void volatile** out) {
  return real(file)->pMethods->xShmMap(real(file), region, size, extend, out);
}
int file_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  return real(file)->pMethods->xShmLock(real(file), offset, n, flags);
}
void file_shm_barrier(sqlite3_file* file) { real(file)->pMethods->xShmBarrier(real(file)); }
int file_shm_unmap(sqlite3_file* file, int delete_flag) {
  return real(file)->pMethods->xShmUnmap(real(file), delete_flag);
}
// Memory-mapped pages would bypass file_read and its check: a checked file declines, and
// SQLite reads the page instead.
int file_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  ChecksumFile& f = as_checksum(file);
  if (f.checked) {
    *out = nullptr;
    return SQLITE_OK;
  }
  return f.real->pMethods->xFetch(f.real, offset, amount, out);
}
int file_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return real(file)->pMethods->xUnfetch(real(file), offset, page);
}

const sqlite3_io_methods kMethods = {
    3,           file_close,   file_read,     file_write,       file_truncate,  file_sync,
    file_size,   file_lock,    file_unlock,   file_reserved,    file_control,   file_sector_size,
    file_device, file_shm_map, file_shm_lock, file_shm_barrier, file_shm_unmap, file_fetch,
    file_unfetch};

int vfs_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  ChecksumFile& f = as_checksum(file);
  f.real = reinterpret_cast<sqlite3_file*>(&f + 1);
  f.main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
  f.checked = false;
  f.page_size = 0;
  sqlite3_vfs* root = root_vfs(vfs);
  const int rc = root->xOpen(root, name, f.real, flags, out_flags);
  // SQLite calls xClose only on a file whose pMethods is set.
  file->pMethods = f.real->pMethods ? &kMethods : nullptr;
  if (rc != SQLITE_OK || !f.main_db) return rc;
  unsigned char header[100];
  if (f.real->pMethods->xRead(f.real, header, sizeof header, 0) == SQLITE_OK) read_header(f, header);
  return rc;
}

sqlite3_vfs* make_vfs() {
  static sqlite3_vfs vfs;
  sqlite3_vfs* root = sqlite3_vfs_find(nullptr);
  vfs = *root;  // every other method is the system VFS's own
  vfs.iVersion = std::min(root->iVersion, 3);
  vfs.szOsFile = int(sizeof(ChecksumFile)) + root->szOsFile;
  vfs.zName = kVfsName;
  vfs.pAppData = root;
  vfs.pNext = nullptr;
  vfs.xOpen = vfs_open;
  return &vfs;
}

}  // namespace

uint64_t page_checksum(uint32_t number, std::span<const unsigned char> page) {
  unsigned char prefix[8];
  store_le(prefix, number);
  ContentHasher hasher;
  hasher.update(prefix);
  hasher.update(page.first(page.size() - kChecksumBytes));
  return hasher.digest();
}

const char* checksum_vfs_name() {
  static std::once_flag registered;
  std::call_once(registered, [] { sqlite3_vfs_register(make_vfs(), 0); });
  return kVfsName;
}

uint32_t last_bad_page() { return bad_page; }

bool reserve_checksum_bytes(sqlite3* db) {
  int reserve = kChecksumBytes;
  return sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve) == SQLITE_OK;
}

}  // namespace bookforge::store
