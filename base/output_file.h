// An output file written whole before it appears. It is written without a name in the folder
// of the file it replaces and put in place by commit() with one rename: a reader sees the old
// file or the new one, never a part, and a run that fails, is interrupted or is killed leaves
// the old file as it was and nothing else.
//
// Outputs are regular files. A symlink is written through: the file it points to is replaced
// (in that file's folder) and the link stays. A directory, FIFO, device or socket is refused,
// since renaming over it would replace it instead of writing to it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/result.h"
#include "base/temp_file.h"

namespace bookforge {

// The file an output named `path` replaces (a symlink followed), if it may: absent or a regular
// file, in a folder that exists and can be written. Nothing is created.
Result<std::string> replaced_file(const std::string& path);

// `folder` exists and this process may create files in it.
Status check_writable_folder(const std::string& folder);

class OutputFile {
 public:
  static Result<OutputFile> create(const std::string& path);
  ~OutputFile();
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;

  int fd() const { return fd_; }
  // The folder of the file replaced.
  const std::string& folder() const { return folder_; }

  // Appends; errors name the output as given.
  Status write(const void* data, size_t size);

  // Syncs the file and renames it into place.
  Status commit();

 private:
  OutputFile(std::string path, std::string target, std::string folder, NewTempFile file);

  std::string path_;    // as given
  std::string target_;  // the file replaced
  std::string folder_;
  int fd_ = -1;
  std::string temp_name_;  // empty while the file has no name
  std::unique_ptr<TempNameRegistration> registration_;
};

// Writes `text` to `path` as an OutputFile.
Status write_output_file(const std::string& path, const std::string& text);

}  // namespace bookforge
