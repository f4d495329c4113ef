// Only a regular file is a Polyglot book: a FIFO, a device or a folder is refused at once, with
// a message that says what the path is, instead of hanging (a FIFO waits for a writer) or passing
// for an empty book (/dev/null, /dev/zero).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "book/polyglot/reader.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

std::string refusal(const std::string& path) {
  Result<PolyglotBook> book = PolyglotBook::open(path);
  return book.ok() ? std::string("accepted as a book of ") + std::to_string(book->size()) + " entries"
                   : book.error().message;
}

TEST(BookFileKind, FifoIsRefusedWithoutWaitingForAWriter) {
  test::TempDir dir;
  const std::string fifo = (dir / "book.bin").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Should open() wait for a writer (the bug), this thread becomes one, so the test fails on
  // its assertion instead of hanging: a non-blocking open for writing succeeds only while a
  // reader is waiting.
  std::atomic<bool> done{false};
  std::thread writer([&] {
    while (!done.load()) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0) {
        ::close(fd);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const std::string message = refusal(fifo);
  done.store(true);
  writer.join();
  EXPECT_NE(message.find(fifo), std::string::npos) << message;
  EXPECT_NE(message.find("is a FIFO"), std::string::npos) << message;
}

TEST(BookFileKind, DevicesAreNotEmptyBooks) {
  for (const char* device : {"/dev/null", "/dev/zero"}) {
    if (::access(device, R_OK) != 0) continue;
    const std::string message = refusal(device);
    EXPECT_NE(message.find(std::string(device) + ": is a device, not a Polyglot book"), std::string::npos)
        << message;
  }
}

TEST(BookFileKind, FolderIsRefused) {
  test::TempDir dir;
  const std::string message = refusal(dir.path().string());
  EXPECT_NE(message.find("is a folder, not a Polyglot book"), std::string::npos) << message;
}

TEST(BookFileKind, SymlinkToARegularFileIsABook) {
  test::TempDir dir;
  test::write_file(dir / "real.bin", "");
  std::filesystem::create_symlink(dir / "real.bin", dir / "link.bin");
  Result<PolyglotBook> book = PolyglotBook::open((dir / "link.bin").string());
  ASSERT_TRUE(book.ok()) << book.error().message;
  EXPECT_EQ(book->size(), 0u);
}

}  // namespace
}  // namespace bookforge::book
