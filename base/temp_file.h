// Temporary files that never outlive the run that made them.
//
// Spilled runs, book sections and outputs being written have no name while they are written
// (O_TMPFILE, or a file unlinked as soon as it is created where the filesystem lacks it): a
// failed, interrupted or killed run leaves nothing behind. The few names a run must give a
// temporary file (an output's last step before it is renamed into place) are registered here,
// so that an interrupt handler can remove them before the process dies.
#pragma once

#include <string>

#include "base/result.h"

namespace bookforge {

// A new temporary file in `dir`: without a name (O_TMPFILE) where the filesystem allows it,
// else named `prefix` plus a unique suffix (`name` then says which, and is empty otherwise).
struct NewTempFile {
  int fd = -1;
  std::string name;
};
Result<NewTempFile> create_temp_file(const std::string& dir, const std::string& prefix);

// A new file in `dir` that has no name: only its descriptor refers to it, so it is gone when
// that is closed, whatever happens. (Where the filesystem lacks O_TMPFILE it is named `prefix`
// plus a unique suffix for the moment between its creation and its unlinking.)
Result<int> create_unnamed_file(const std::string& dir, const std::string& prefix);

// Gives a file made by create_temp_file() without a name the name `path` (which must not
// exist).
Status link_unnamed_file(int fd, const std::string& path);

// While one of these lives, `path` is removed by unlink_registered_temp_names(). Registration
// is best effort: a run with more names at once than the registry holds leaves the others to
// the ordinary cleanup.
class TempNameRegistration {
 public:
  explicit TempNameRegistration(const std::string& path);
  ~TempNameRegistration();
  TempNameRegistration(const TempNameRegistration&) = delete;
  TempNameRegistration& operator=(const TempNameRegistration&) = delete;

 private:
  int slot_ = -1;
};

// Unlinks every registered name. Async-signal-safe: an interrupt handler calls it.
void unlink_registered_temp_names();

}  // namespace bookforge
