#include "counts/spill_file.h"

#include <unistd.h>

#include <cerrno>

#include "base/temp_file.h"

namespace bookforge::counts {

Result<std::shared_ptr<SpillFile>> SpillFile::create(const std::string& dir) {
  Result<int> fd = create_unnamed_file(dir, "bookforge-run");
  if (!fd) return fd.error();
  return std::shared_ptr<SpillFile>(new SpillFile(*fd, dir));
}

SpillFile::~SpillFile() { ::close(fd_); }

bool SpillFile::write_at(const void* data, size_t size, uint64_t offset) const {
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pwrite(fd_, bytes + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

}  // namespace bookforge::counts
