#include "base/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace bookforge {
namespace {

namespace fs = std::filesystem;

const char* kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

// What the file being written is called while it has a name: in a folder without O_TMPFILE, or
// for the moment between being linked and being renamed.
std::string temp_stem(const fs::path& target) {
  std::string stem = ".";  // appended, not "." + name: GCC 12 warns wrongly (-Wrestrict) on that
  stem += target.filename().string();
  stem += ".tmp";
  return stem;
}

}  // namespace

Result<std::string> replaced_file(const std::string& path) {
  std::error_code ec;
  fs::path target(path);
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    target = fs::weakly_canonical(target, ec);
    if (ec) return Error{path + ": cannot follow the symlink: " + ec.message()};
  }
  const fs::file_status status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status))
    return Error{path + " is " + kind_of(status.type()) + "; outputs are written only to regular files"};
  if (!target.has_filename())
    return Error{path + " names a folder; outputs are written only to regular files"};
  if (target.parent_path().empty()) target = fs::path(".") / target;
  if (Status s = check_writable_folder(target.parent_path().string()); !s.ok())
    return Error{path + ": " + s.error().message};
  return target.string();
}

Status check_writable_folder(const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return Error{"no such folder: " + folder};
  if (::access(folder.c_str(), W_OK) != 0)
    return Error{"cannot write in " + folder + ": " + std::strerror(errno)};
  return ok_status();
}

Result<OutputFile> OutputFile::create(const std::string& path) {
  Result<std::string> target = replaced_file(path);
  if (!target) return target.error();
  const fs::path replaced(*target);
  const std::string folder = replaced.parent_path().string();
  Result<NewTempFile> file = create_temp_file(folder, temp_stem(replaced));
  if (!file) return file.error();
  return OutputFile(path, *target, folder, std::move(*file));
}

OutputFile::OutputFile(std::string path, std::string target, std::string folder, NewTempFile file)
    : path_(std::move(path)),
      target_(std::move(target)),
      folder_(std::move(folder)),
      fd_(file.fd),
      temp_name_(std::move(file.name)) {
  if (!temp_name_.empty()) registration_ = std::make_unique<TempNameRegistration>(temp_name_);
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)),
      target_(std::move(o.target_)),
      folder_(std::move(o.folder_)),
      fd_(o.fd_),
      temp_name_(std::move(o.temp_name_)),
      registration_(std::move(o.registration_)) {
  o.fd_ = -1;
  o.temp_name_.clear();
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_name_.empty()) ::unlink(temp_name_.c_str());
}

Status OutputFile::write(const void* data, size_t size) {
  if (fd_ < 0) return Error{"internal error: " + path_ + " was already committed"};
  const char* bytes = static_cast<const char*>(data);
  for (size_t done = 0; done < size;) {
    ssize_t n = ::write(fd_, bytes + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"cannot write " + path_ + ": " + std::strerror(errno)};
    done += size_t(n);
  }
  return ok_status();
}

Status OutputFile::commit() {
  if (fd_ < 0) return Error{"internal error: " + path_ + " was already committed"};
  if (::fsync(fd_) != 0) return Error{"cannot write " + path_ + ": " + std::strerror(errno)};
  if (temp_name_.empty()) {
    // A name of its own first: linkat() cannot replace a file, rename() can.
    static std::atomic<unsigned> counter{0};
    const std::string prefix =
        folder_ + "/" + temp_stem(fs::path(target_)) + "-" + std::to_string(::getpid()) + "-";
    Status linked = ok_status();
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = prefix + std::to_string(counter++);
      auto registration = std::make_unique<TempNameRegistration>(name);
      linked = link_unnamed_file(fd_, name);
      if (linked.ok()) {
        temp_name_ = std::move(name);
        registration_ = std::move(registration);
        break;
      }
      if (::access(name.c_str(), F_OK) != 0) break;  // not a name clash: give up
    }
    if (!linked.ok()) return Error{"cannot write " + path_ + ": " + linked.error().message};
  }
  if (::rename(temp_name_.c_str(), target_.c_str()) != 0)
    return Error{"cannot write " + path_ + ": cannot rename " + temp_name_ + ": " + std::strerror(errno)};
  temp_name_.clear();
  registration_.reset();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return Error{"cannot write " + path_ + ": " + std::strerror(errno)};
  // The rename is durable once the folder is synced.
  if (int dir = ::open(folder_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return ok_status();
}

Status write_output_file(const std::string& path, const std::string& text) {
  Result<OutputFile> out = OutputFile::create(path);
  if (!out) return out.error();
  if (Status s = out->write(text.data(), text.size()); !s.ok()) return s;
  return out->commit();
}

}  // namespace bookforge
