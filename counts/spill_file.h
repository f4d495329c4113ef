// The file a tally partition spills its runs into (counts/run_file.h): a temporary file
// without a name (base/temp_file.h), so it disappears when its descriptor is closed, whether
// the build succeeds, fails or is killed. Runs are appended one after another, so a partition
// needs one file (one descriptor) however often it spills; the last owner closes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"

namespace bookforge::counts {

class SpillFile {
 public:
  static Result<std::shared_ptr<SpillFile>> create(const std::string& dir);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  int fd() const { return fd_; }
  const std::string& dir() const { return dir_; }

  // Writes all of [data, data + size) at `offset`; false on an error (errno says which).
  bool write_at(const void* data, size_t size, uint64_t offset) const;

  // Where the next run goes: the end of the last one. One writer at a time per file.
  uint64_t end() const { return end_; }
  void run_written(uint64_t end) { end_ = end; }

 private:
  SpillFile(int fd, std::string dir) : fd_(fd), dir_(std::move(dir)) {}
  int fd_;
  std::string dir_;
  uint64_t end_ = 0;
};

}  // namespace bookforge::counts
