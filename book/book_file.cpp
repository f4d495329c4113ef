#include "book/book_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "book/abk/format.h"
#include "book/abk/to_polyglot.h"
#include "book/ctg/to_polyglot.h"

namespace bookforge::book {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

// Whether a file not named by its extension starts like an ABK book. Only a regular file is
// looked into: reading a FIFO would wait for a writer (PolyglotBook::open refuses the others).
bool starts_like_abk(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  unsigned char head[4] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return in.gcount() == sizeof head && has_abk_magic(head);
}

using Converter = Result<PolyglotBook> (*)(std::span<const unsigned char>, const std::string&);

// A book of another format, read whole and converted by `convert`; `kind` names the format.
Result<PolyglotBook> open_converted(const std::string& path, const char* kind, Converter convert) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error{"cannot open book " + path + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{path + ": not a regular file, so not " + std::string(kind)};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open book " + path + ": " + std::strerror(errno)};
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{"cannot read book " + path};
  return convert(bytes, path);
}

}  // namespace

BookFormat book_format_of(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".ctg") return BookFormat::kCtg;
  if (ext == ".abk" || (ext != ".bin" && starts_like_abk(path))) return BookFormat::kAbk;
  return BookFormat::kPolyglot;
}

Result<PolyglotBook> open_book_file(const std::string& path) {
  switch (book_format_of(path)) {
    case BookFormat::kCtg:
      return open_converted(path, "a ChessBase CTG book", polyglot_from_ctg);
    case BookFormat::kAbk:
      return open_converted(path, "an Arena ABK book", polyglot_from_abk);
    case BookFormat::kPolyglot:
      break;
  }
  return PolyglotBook::open(path);
}

}  // namespace bookforge::book
