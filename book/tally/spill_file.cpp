#include "book/tally/spill_file.h"

#include <unistd.h>

#include "book/temp_file.h"

namespace bookforge::book {

Result<std::shared_ptr<SpillFile>> SpillFile::create(const std::string& dir) {
  Result<int> fd = create_unnamed_file(dir, "bookforge-run");
  if (!fd) return fd.error();
  return std::shared_ptr<SpillFile>(new SpillFile(*fd, dir));
}

SpillFile::~SpillFile() { ::close(fd_); }

}  // namespace bookforge::book
