// Zeroed memory for the tally's hash tables, which grow in place: a large block is mapped
// directly, so growing it is an mremap (the kernel moves page-table entries, nothing is
// copied, and the old and the new array never both exist). Mapped pages are populated (made
// writable) at once, since a table's pages are all touched soon anyway.
#pragma once

#include <cstddef>

namespace bookforge::counts {

// nullptr when out of memory. Release with release_table_memory(pointer, the same bytes). With
// populate false, a large block is only mapped: call populate_table_memory before it is read.
void* allocate_table_memory(size_t bytes, bool populate = true);
// Makes a block from allocate_table_memory(bytes, false) writable at once (see above).
void populate_table_memory(void* memory, size_t bytes);
// Grows a block to new_bytes (> old_bytes), keeping its contents and zeroing the rest; nullptr
// when out of memory (the old block is then still valid).
void* grow_table_memory(void* memory, size_t old_bytes, size_t new_bytes);
void release_table_memory(void* memory, size_t bytes);

}  // namespace bookforge::counts
