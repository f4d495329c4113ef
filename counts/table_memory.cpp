#include "counts/table_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace bookforge::counts {
namespace {

// Below this, malloc's own pool is as good and wastes less.
constexpr size_t kMapThreshold = size_t(1) << 20;

// Maps the pages writable at once. A table is read before it is written (a lookup looks at a
// slot before an insertion fills it): an untouched page would first be mapped to the shared
// zero page and then copied on the first write, and that second fault flushes the TLB of every
// core running one of the process's threads. madvise(MADV_POPULATE_WRITE) maps them without a
// fault per page (a quarter cheaper than writing to each), but it holds the process's
// memory-map lock while it works, and every other thread's page fault or mmap waits for it: so
// it goes a small piece at a time. Where the kernel lacks it, each page is written to.
void populate(void* memory, size_t bytes) {
  constexpr size_t kPiece = size_t(256) << 10;
  char* p = static_cast<char*>(memory);
  for (size_t done = 0; done < bytes; done += kPiece) {
    const size_t n = std::min(kPiece, bytes - done);
    if (::madvise(p + done, n, MADV_POPULATE_WRITE) == 0) continue;
    const size_t page = size_t(::sysconf(_SC_PAGESIZE));
    volatile char* v = p + done;
    for (size_t offset = 0; offset < n; offset += page) v[offset] = 0;
  }
}

// Asks for transparent huge pages (2 MiB) under a table. Every lookup of a Zobrist key lands on
// a random page: with 4 KiB pages a table of 32 MiB spans 8,192 of them, past what the TLB
// holds, and nearly every insertion paid a page walk besides its cache miss. Many kernels only
// give huge pages to memory that asks (transparent_hugepage "madvise", or "always" with a
// process that opted out); where there are none, this changes nothing.
void want_huge_pages(void* memory, size_t bytes) {
#ifdef MADV_HUGEPAGE
  ::madvise(memory, bytes, MADV_HUGEPAGE);
#else
  (void)memory;
  (void)bytes;
#endif
}

void* map_zeroed(size_t bytes, bool populate_now) {
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  want_huge_pages(memory, bytes);
  if (populate_now) populate(memory, bytes);
  return memory;
}

}  // namespace

void* allocate_table_memory(size_t bytes, bool populate_now) {
  return bytes < kMapThreshold ? std::calloc(bytes, 1) : map_zeroed(bytes, populate_now);
}

void populate_table_memory(void* memory, size_t bytes) {
  if (bytes >= kMapThreshold) populate(memory, bytes);
}

void* grow_table_memory(void* memory, size_t old_bytes, size_t new_bytes) {
  if (old_bytes >= kMapThreshold) {
    // Anonymous pages added by mremap read as zero.
    void* moved = ::mremap(memory, old_bytes, new_bytes, MREMAP_MAYMOVE);
    if (moved == MAP_FAILED) return nullptr;
    const size_t page = size_t(::sysconf(_SC_PAGESIZE));
    const size_t from = old_bytes / page * page;
    populate(static_cast<char*>(moved) + from, new_bytes - from);
    return moved;
  }
  void* grown = allocate_table_memory(new_bytes);
  if (!grown) return nullptr;
  std::memcpy(grown, memory, old_bytes);
  std::free(memory);
  return grown;
}

void release_table_memory(void* memory, size_t bytes) {
  if (!memory) return;
  if (bytes < kMapThreshold)
    std::free(memory);
  else
    ::munmap(memory, bytes);
}

}  // namespace bookforge::counts
