// The records of a .ctg file, read page by page (book/ctg/format.h). Every length is checked
// against its page, so a damaged file gives an error naming the file, the page and the byte
// offset, never a read outside the bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/ctg/board_code.h"
#include "book/ctg/format.h"

namespace bookforge::book {

struct CtgRecord {
  size_t offset = 0;  // of the record in the file, for messages
  CtgBoard board;
  std::vector<uint8_t> moves;  // code, annotation, code, annotation, ...
  CtgStatistics statistics;
};

Result<std::vector<CtgRecord>> read_ctg_pages(std::span<const unsigned char> bytes, const std::string& name);

// "NAME: page P (byte offset O): what", the form of every CTG error.
Error ctg_error(const std::string& name, size_t offset, const std::string& what);

}  // namespace bookforge::book
