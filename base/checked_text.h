// A text file that one step of a spread-out job hands to the next (a rescoring plan, a batch of
// verdicts), made so that a cut or damaged copy is refused instead of read short:
//
//   bookforge <format> <version>   the first line: what the file is
//   ...                            the caller's lines (header, then records)
//   end <lines> <hash>             the number of lines before it, and the 64-bit ContentHasher
//                                  (base/content_hash.h) of every byte before it, as 16 hex digits
//
// It is written as an OutputFile (base/output_file.h): it appears whole or not at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/content_hash.h"
#include "base/output_file.h"
#include "base/result.h"

namespace bookforge {

class CheckedTextWriter {
 public:
  static Result<CheckedTextWriter> create(const std::string& path, std::string_view format, int version);

  // `line` holds no newline.
  Status add_line(std::string_view line);
  // Writes the end line and puts the file in place.
  Status commit();

 private:
  CheckedTextWriter(OutputFile file) : file_(std::move(file)) {}
  Status flush();

  OutputFile file_;
  ContentHasher hasher_;
  uint64_t lines_ = 0;
  std::string buffer_;
};

struct CheckedText {
  std::string path;
  std::vector<std::string> lines;  // the caller's lines, without the first and the end line

  // "path:N", N the line number in the file of lines[index], for messages.
  std::string where(size_t index) const { return path + ":" + std::to_string(index + 2); }
};

// The caller's lines of a file written by CheckedTextWriter with this format and version; errors
// name the file (another format or version, no end line, a checksum that does not match).
Result<CheckedText> read_checked_text(const std::string& path, std::string_view format, int version);

}  // namespace bookforge
