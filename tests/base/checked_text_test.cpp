// Checked texts: what is written reads back; a copy cut anywhere, a changed byte, another format
// or another version is refused, naming the file.
#include "base/checked_text.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace bookforge {
namespace {

std::string write_sample(const test::TempDir& dir) {
  const std::string path = (dir / "sample").string();
  Result<CheckedTextWriter> out = CheckedTextWriter::create(path, "sample", 3);
  EXPECT_TRUE(out.ok());
  for (const char* line : {"first", "", "third\twith a tab"}) EXPECT_TRUE(out->add_line(line).ok());
  EXPECT_TRUE(out->commit().ok());
  return path;
}

TEST(CheckedText, ReadsBackTheLinesWritten) {
  test::TempDir dir;
  const std::string path = write_sample(dir);
  Result<CheckedText> text = read_checked_text(path, "sample", 3);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(text->lines, (std::vector<std::string>{"first", "", "third\twith a tab"}));
  EXPECT_EQ(text->where(0), path + ":2");
}

TEST(CheckedText, ACutOrChangedCopyIsRefusedNamingTheFile) {
  test::TempDir dir;
  const std::string whole = test::read_file(write_sample(dir));
  const std::string copy = (dir / "copy").string();
  for (size_t size = 0; size < whole.size(); ++size) {
    test::write_file(copy, whole.substr(0, size));
    Result<CheckedText> text = read_checked_text(copy, "sample", 3);
    ASSERT_FALSE(text.ok()) << size;
    EXPECT_EQ(text.error().message.rfind(copy + ": ", 0), 0u) << text.error().message;
  }
  for (size_t at = 0; at < whole.size(); ++at) {
    std::string changed = whole;
    changed[at] = changed[at] == 'x' ? 'y' : 'x';
    test::write_file(copy, changed);
    EXPECT_FALSE(read_checked_text(copy, "sample", 3).ok()) << at;
  }
}

TEST(CheckedText, AnotherFormatOrVersionIsRefused) {
  test::TempDir dir;
  const std::string path = write_sample(dir);
  Result<CheckedText> other = read_checked_text(path, "plan", 3);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message, path + ": not a bookforge plan file");
  Result<CheckedText> newer = read_checked_text(path, "sample", 2);
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().message, path + ": format version '3', this bookforge reads 2");
}

}  // namespace
}  // namespace bookforge
