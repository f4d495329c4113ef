// libFuzzer target for the ABK reader: the input is an ABK file's entries (a valid header is
// put before it, so that the fuzzer spends its time on the tree and not on the signature), and
// once more the whole file as given. Besides crashes and sanitizer reports it checks what the
// reader promises: a book it accepts converts into a valid Polyglot book whose every entry is a
// legal move in the position it was reached in.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "book/abk/format.h"
#include "book/abk/reader.h"
#include "book/abk/to_polyglot.h"

using namespace bookforge;

namespace {

void check(std::span<const unsigned char> bytes) {
  Result<std::vector<book::AbkMove>> moves = book::read_abk(bytes, "fuzz.abk");
  if (!moves.ok()) {
    if (moves.error().message.rfind("fuzz.abk: ", 0) != 0) {
      std::fprintf(stderr, "error without the file's name: %s\n", moves.error().message.c_str());
      std::abort();
    }
    return;
  }
  Result<book::PolyglotBook> converted = book::polyglot_from_abk(bytes, "fuzz.abk");
  if (!converted.ok()) {
    std::fprintf(stderr, "read, but not converted: %s\n", converted.error().message.c_str());
    std::abort();
  }
  if (converted->size() > moves->size()) std::abort();  // merging never adds entries
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<unsigned char> file(book::kAbkHeaderSize, 0);
  for (size_t i = 0; i < 4; ++i) file[i] = book::kAbkMagic[i];
  file.insert(file.end(), data, data + size);
  check(file);
  check(std::span<const unsigned char>(data, size));
  return 0;
}
