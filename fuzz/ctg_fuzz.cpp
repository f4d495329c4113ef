// libFuzzer target for the CTG reader: the input is a .ctg file's pages after its header page
// (a zero header page is put before it, so that the fuzzer spends its time on the records), and
// once more the whole file as given. Besides crashes and sanitizer reports it checks what the
// reader promises: every error names the file, and a book it accepts converts into a valid
// Polyglot book with no more entries than the moves it read.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "book/ctg/format.h"
#include "book/ctg/reader.h"
#include "book/ctg/to_polyglot.h"

using namespace bookforge;

namespace {

void check(std::span<const unsigned char> bytes) {
  Result<std::vector<book::CtgMove>> moves = book::read_ctg(bytes, "fuzz.ctg");
  if (!moves.ok()) {
    if (moves.error().message.rfind("fuzz.ctg: ", 0) != 0) {
      std::fprintf(stderr, "error without the file's name: %s\n", moves.error().message.c_str());
      std::abort();
    }
    return;
  }
  Result<book::PolyglotBook> converted = book::polyglot_from_ctg(bytes, "fuzz.ctg");
  if (!converted.ok()) {
    std::fprintf(stderr, "read, but not converted: %s\n", converted.error().message.c_str());
    std::abort();
  }
  if (converted->size() > moves->size()) std::abort();  // one entry per move at most
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Whole pages only, so that most inputs reach the records.
  std::vector<unsigned char> file(book::kCtgPageSize, 0);
  file.insert(file.end(), data, data + size);
  file.resize(file.size() + (book::kCtgPageSize - file.size() % book::kCtgPageSize) % book::kCtgPageSize, 0);
  check(file);
  check(std::span<const unsigned char>(data, size));
  return 0;
}
