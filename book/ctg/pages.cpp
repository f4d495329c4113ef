#include "book/ctg/pages.h"

namespace bookforge::book {
namespace {

// One page's records appended to `out`; `page` is the page's number in the file.
Status read_page(std::span<const unsigned char> bytes, size_t page, const std::string& name,
                 std::vector<CtgRecord>& out) {
  const size_t start = page * kCtgPageSize;
  const unsigned char* p = bytes.data() + start;
  const size_t records = load_ctg_uint(p, 2);
  const size_t used = load_ctg_uint(p + 2, 2);
  if (used > kCtgPageSize || used < kCtgPageHeaderSize)
    return ctg_error(name, start,
                     "the page says it uses " + std::to_string(used) + " bytes, not within 4.." +
                         std::to_string(kCtgPageSize));
  size_t at = kCtgPageHeaderSize;
  for (size_t i = 0; i < records; ++i) {
    const std::string which = "record " + std::to_string(i + 1) + " of " + std::to_string(records);
    if (at >= used)
      return ctg_error(name, start + at,
                       which + " starts past the page's " + std::to_string(used) + " bytes");
    const size_t position_length = p[at] & kCtgLengthMask;
    if (position_length < 2 || at + position_length >= used)
      return ctg_error(
          name, start + at,
          which + ": a position of " + std::to_string(position_length) + " bytes does not fit in the page");
    const size_t moves_length = p[at + position_length];
    const size_t end = at + position_length + moves_length + kCtgStatisticsSize;
    if (moves_length == 0 || moves_length % 2 == 0 || end > used)
      return ctg_error(name, start + at,
                       which + ": a move list of " + std::to_string(moves_length) +
                           " bytes (1 + 2 per move) does not fit in the page");
    const std::optional<CtgBoard> board = decode_ctg_board({p + at, position_length});
    if (!board) return ctg_error(name, start + at, which + ": the position's bits do not make a board");
    CtgRecord record;
    record.offset = start + at;
    record.board = *board;
    record.moves.assign(p + at + position_length + 1, p + at + position_length + moves_length);
    record.statistics = decode_ctg_statistics(p + at + position_length + moves_length);
    out.push_back(std::move(record));
    at = end;
  }
  return ok_status();
}

}  // namespace

Error ctg_error(const std::string& name, size_t offset, const std::string& what) {
  return Error{name + ": page " + std::to_string(offset / kCtgPageSize) + " (byte offset " +
               std::to_string(offset) + "): " + what};
}

Result<std::vector<CtgRecord>> read_ctg_pages(std::span<const unsigned char> bytes, const std::string& name) {
  if (bytes.size() < kCtgPageSize)
    return Error{name + ": " + std::to_string(bytes.size()) +
                 " bytes, shorter than the 4096-byte CTG header page"};
  if (bytes.size() % kCtgPageSize != 0)
    return Error{
        name + ": size " + std::to_string(bytes.size()) + " bytes leaves a partial page at byte offset " +
        std::to_string(bytes.size() - bytes.size() % kCtgPageSize) + " (pages are 4096 bytes; truncated?)"};
  std::vector<CtgRecord> records;
  for (size_t page = 1; page < bytes.size() / kCtgPageSize; ++page)
    if (Status s = read_page(bytes, page, name, records); !s.ok()) return s.error();
  return records;
}

}  // namespace bookforge::book
