#include "base/checked_text.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/hex.h"
#include "base/text_fields.h"

namespace bookforge {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

std::string first_line(std::string_view format, int version) {
  return "bookforge " + std::string(format) + " " + std::to_string(version);
}

std::span<const unsigned char> bytes_of(std::string_view text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

// The end line's two numbers, if `line` is one.
bool parse_end_line(std::string_view line, uint64_t& lines, uint64_t& hash) {
  if (!line.starts_with("end ")) return false;
  line.remove_prefix(4);
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return false;
  return parse_whole(line.substr(0, space), lines) && parse_hex64(line.substr(space + 1), hash);
}

}  // namespace

Result<CheckedTextWriter> CheckedTextWriter::create(const std::string& path, std::string_view format,
                                                    int version) {
  Result<OutputFile> file = OutputFile::create(path);
  if (!file) return file.error();
  CheckedTextWriter writer(std::move(*file));
  if (Status s = writer.add_line(first_line(format, version)); !s.ok()) return s.error();
  return writer;
}

Status CheckedTextWriter::add_line(std::string_view line) {
  const size_t start = buffer_.size();
  buffer_ += line;
  buffer_ += '\n';
  hasher_.update(bytes_of(std::string_view(buffer_).substr(start)));
  ++lines_;
  return buffer_.size() >= kFlushBytes ? flush() : ok_status();
}

Status CheckedTextWriter::flush() {
  Status s = file_.write(buffer_.data(), buffer_.size());
  buffer_.clear();
  return s;
}

Status CheckedTextWriter::commit() {
  buffer_ += "end " + std::to_string(lines_) + " " + hex64(hasher_.digest()) + "\n";
  if (Status s = flush(); !s.ok()) return s;
  return file_.commit();
}

Result<CheckedText> read_checked_text(const std::string& path, std::string_view format, int version) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return Error{path + ": cannot read: " + std::strerror(errno)};

  const std::string expected = first_line(format, version);
  const std::string_view head = std::string_view(text).substr(0, text.find('\n'));
  if (head != expected) {
    const std::string kind = "bookforge " + std::string(format) + " ";
    return Error{path + ": " +
                 (head.starts_with(kind) ? "format version '" + std::string(head.substr(kind.size())) +
                                               "', this bookforge reads " + std::to_string(version)
                                         : "not a bookforge " + std::string(format) + " file")};
  }
  // The end line is the last one, and is complete: a file cut anywhere has none.
  const size_t end_start = text.size() >= 2 ? text.rfind('\n', text.size() - 2) + 1 : 0;
  uint64_t lines = 0, hash = 0;
  if (text.empty() || text.back() != '\n' ||
      !parse_end_line(std::string_view(text).substr(end_start, text.size() - 1 - end_start), lines, hash))
    return Error{path + ": cut short (no end line): written by a run that did not finish, or copied in part"};
  ContentHasher hasher;
  hasher.update(bytes_of(std::string_view(text).substr(0, end_start)));
  if (hasher.digest() != hash) return Error{path + ": damaged: its checksum does not match its content"};

  CheckedText out;
  out.path = path;
  for (size_t at = head.size() + 1; at < end_start;) {
    const size_t newline = text.find('\n', at);
    out.lines.emplace_back(text, at, newline - at);
    at = newline + 1;
  }
  if (out.lines.size() + 1 != lines)
    return Error{path + ": damaged: " + std::to_string(out.lines.size() + 1) +
                 " lines before its end line, " + std::to_string(lines) + " written"};
  return out;
}

}  // namespace bookforge
