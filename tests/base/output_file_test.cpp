// OutputFile and the temporary files under it: nothing shows in the folder until commit(), an
// output that is not committed leaves the old file as it was, a symlink is written through,
// non-regular files are refused, and registered temporary names can be removed at once.
#include "base/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "base/temp_file.h"
#include "support/test_support.h"

namespace bookforge {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;
using test::write_file;

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

TEST(OutputFile, ShowsNothingUntilCommittedThenReplacesTheOldFile) {
  TempDir tmp;
  write_file(tmp / "out.txt", "old");
  Result<OutputFile> out = OutputFile::create((tmp / "out.txt").string());
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_TRUE(out->write("new", 3));
  EXPECT_EQ(names_in(tmp.path()), std::set<std::string>{"out.txt"});
  EXPECT_EQ(read_file(tmp / "out.txt"), "old");
  ASSERT_TRUE(out->commit());
  EXPECT_EQ(names_in(tmp.path()), std::set<std::string>{"out.txt"});
  EXPECT_EQ(read_file(tmp / "out.txt"), "new");
}

TEST(OutputFile, NotCommittedLeavesTheOldFileAndNothingElse) {
  TempDir tmp;
  write_file(tmp / "out.txt", "old");
  {
    Result<OutputFile> out = OutputFile::create((tmp / "out.txt").string());
    ASSERT_TRUE(out);
    ASSERT_TRUE(out->write("new", 3));
  }
  EXPECT_EQ(names_in(tmp.path()), std::set<std::string>{"out.txt"});
  EXPECT_EQ(read_file(tmp / "out.txt"), "old");
}

TEST(OutputFile, WritesThroughASymlinkInTheTargetsFolder) {
  TempDir tmp;
  fs::create_directory(tmp / "real");
  write_file(tmp / "real" / "book.bin", "old");
  fs::create_symlink(tmp / "real" / "book.bin", tmp / "link.bin");
  Result<OutputFile> out = OutputFile::create((tmp / "link.bin").string());
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(fs::path(out->folder()), tmp / "real");
  ASSERT_TRUE(out->write("new", 3));
  ASSERT_TRUE(out->commit());
  EXPECT_TRUE(fs::is_symlink(tmp / "link.bin"));
  EXPECT_EQ(read_file(tmp / "real" / "book.bin"), "new");
}

TEST(OutputFile, RefusesWhatIsNotARegularFile) {
  TempDir tmp;
  ASSERT_EQ(::mkfifo((tmp / "fifo").c_str(), 0644), 0);
  fs::create_directory(tmp / "folder");
  for (const char* name : {"fifo", "folder"}) {
    Result<OutputFile> out = OutputFile::create((tmp / name).string());
    ASSERT_FALSE(out) << name;
    EXPECT_NE(out.error().message.find((tmp / name).string() + " is a"), std::string::npos)
        << out.error().message;
  }
  Result<OutputFile> missing = OutputFile::create((tmp / "nowhere" / "x").string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no such folder"), std::string::npos) << missing.error().message;
  EXPECT_TRUE(fs::is_fifo(tmp / "fifo"));
}

TEST(TempFile, RegisteredNamesAreUnlinkedOnRequestAndOnlyWhileRegistered) {
  TempDir tmp;
  write_file(tmp / "kept", "x");
  write_file(tmp / "registered", "x");
  write_file(tmp / "released", "x");
  { TempNameRegistration released((tmp / "released").string()); }
  TempNameRegistration registered((tmp / "registered").string());
  unlink_registered_temp_names();
  EXPECT_EQ(names_in(tmp.path()), (std::set<std::string>{"kept", "released"}));
}

TEST(TempFile, AnUnnamedFileNeverShowsAndLinksUnderAName) {
  TempDir tmp;
  Result<NewTempFile> file = create_temp_file(tmp.path().string(), "x");
  ASSERT_TRUE(file) << file.error().message;
  if (!file->name.empty()) GTEST_SKIP() << "this filesystem has no O_TMPFILE";
  EXPECT_TRUE(fs::is_empty(tmp.path()));
  ASSERT_EQ(::write(file->fd, "abc", 3), 3);
  ASSERT_TRUE(link_unnamed_file(file->fd, (tmp / "named").string()));
  ::close(file->fd);
  EXPECT_EQ(read_file(tmp / "named"), "abc");
}

}  // namespace
}  // namespace bookforge
