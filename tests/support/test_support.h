// Helpers shared by every test suite: where the data is, temporary folders, and running the
// real bookforge binary for end-to-end tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "book/polyglot/format.h"
#include "chess/board.h"

namespace bookforge::test {

// The repository root (for data-samples/ and tests/data/).
std::filesystem::path source_dir();

// ../shared/data, or an empty path when it is absent.
std::filesystem::path shared_data();

// A path under ../shared/data; the calling test is skipped when the file is absent.
#define BOOKFORGE_SHARED_OR_SKIP(var, relative)                                    \
  const std::filesystem::path var = ::bookforge::test::shared_data() / (relative); \
  if (::bookforge::test::shared_data().empty() || !std::filesystem::exists(var))   \
  GTEST_SKIP() << "shared data absent: " << (relative)

// A fresh, empty folder for one test, removed when the object goes away.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the bookforge binary with the given arguments (no shell involved) and captures
// its standard output and standard error. `stdin_data` is fed to its standard input.
CommandResult run_bookforge(const std::vector<std::string>& args, const std::string& stdin_data = "");

// Runs any program the same way (used for reference tools such as polyglot).
CommandResult run_program(const std::vector<std::string>& argv, const std::string& stdin_data = "");

// The board of a FEN; a bad FEN fails the calling test (and gives the start position).
chess::Board board_of(const std::string& fen);

// The same position with the colours swapped: ranks mirrored, piece letters' case swapped, the
// other side to move, castling rights and the en-passant square mirrored too (move counters
// reset). An evaluation scores both alike for the side to move.
std::string colour_flipped(const std::string& fen);

// Positions of every phase for the evaluations' tests: openings, middlegames, endgames, an
// en-passant square, bare material.
const std::vector<std::string>& evaluation_positions();

// A Polyglot book's bytes: the entries in the book's order (book_order), encoded.
std::vector<unsigned char> polyglot_bytes(std::vector<book::PolyglotEntry> entries);

// data-samples/`packed` (an .xz file) unpacked into `dir` under its name without ".xz": the
// path, or "" when xz or the sample is missing.
std::string unpacked_sample(const TempDir& dir, const std::string& packed);
std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& text);

}  // namespace bookforge::test
