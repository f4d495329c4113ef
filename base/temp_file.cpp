#include "base/temp_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace bookforge {
namespace {

// The registry is a fixed array, so that a signal handler can walk it without allocating or
// locking. A slot goes free -> claimed (its path being copied) -> ready, and back to free when
// its registration ends; the handler takes a ready slot for itself (-> unlinking) before it
// reads the path, so no registration can rewrite a path while the handler reads it.
enum SlotState : int { kFree, kClaimed, kReady, kUnlinking };
constexpr int kSlots = 64;

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the interrupt handler reads the slots");

Slot g_slots[kSlots];

// O_TMPFILE fails with one of these where the filesystem (or the kernel) does not support it.
bool lacks_tmpfile(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL; }

}  // namespace

Result<NewTempFile> create_temp_file(const std::string& dir, const std::string& prefix) {
  const std::string folder = dir.empty() ? std::string(".") : dir;
  int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd >= 0) return NewTempFile{fd, ""};
  if (!lacks_tmpfile(errno))
    return Error{"cannot create a temporary file in " + folder + ": " + std::strerror(errno)};
  std::string name = folder + "/" + prefix + "-XXXXXX";
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return Error{"cannot create a temporary file in " + folder + ": " + std::strerror(errno)};
  ::fchmod(fd, 0644);
  return NewTempFile{fd, name};
}

Result<int> create_unnamed_file(const std::string& dir, const std::string& prefix) {
  Result<NewTempFile> file = create_temp_file(dir, prefix);
  if (!file) return file.error();
  if (!file->name.empty()) ::unlink(file->name.c_str());
  return file->fd;
}

Status link_unnamed_file(int fd, const std::string& path) {
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0) return ok_status();
  const int err = errno;
  // Without /proc, linking by descriptor needs AT_EMPTY_PATH (and, in some kernels, privilege).
  if (err != EEXIST && ::linkat(fd, "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH) == 0) return ok_status();
  return Error{"cannot create " + path + ": " + std::strerror(err)};
}

TempNameRegistration::TempNameRegistration(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kReady);
    slot_ = i;
    return;
  }
}

TempNameRegistration::~TempNameRegistration() {
  if (slot_ < 0) return;
  // Fails only while an interrupt handler is unlinking it: the process is about to end.
  int expected = kReady;
  g_slots[slot_].state.compare_exchange_strong(expected, kFree);
}

void unlink_registered_temp_names() {
  for (Slot& slot : g_slots) {
    int expected = kReady;
    if (slot.state.compare_exchange_strong(expected, kUnlinking)) ::unlink(slot.path);
  }
}

}  // namespace bookforge
