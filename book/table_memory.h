// Zeroed memory for the tally's large hash tables. Large blocks are mapped directly and asked
// for transparent huge pages: the tables are probed at random, and with 4 KiB pages nearly
// every probe of a table of some hundred megabytes would also miss the TLB.
#pragma once

#include <cstddef>

namespace bookforge::book {

// nullptr when out of memory. Release with release_table_memory(pointer, the same bytes).
void* allocate_table_memory(size_t bytes);
void release_table_memory(void* memory, size_t bytes);

}  // namespace bookforge::book
