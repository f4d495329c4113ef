#include "book/table_memory.h"

#include <sys/mman.h>

#include <cstdlib>

namespace bookforge::book {
namespace {
// Below this, malloc's own pool is as good and wastes less.
constexpr size_t kMapThreshold = size_t(4) << 20;
}  // namespace

void* allocate_table_memory(size_t bytes) {
  if (bytes < kMapThreshold) return std::calloc(bytes, 1);
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  ::madvise(memory, bytes, MADV_HUGEPAGE);  // a hint: without huge pages the table still works
#endif
  return memory;
}

void release_table_memory(void* memory, size_t bytes) {
  if (!memory) return;
  if (bytes < kMapThreshold) std::free(memory);
  else ::munmap(memory, bytes);
}

}  // namespace bookforge::book
