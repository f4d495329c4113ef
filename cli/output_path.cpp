#include "cli/output_path.h"

#include <sys/stat.h>

#include <filesystem>

#include "base/output_file.h"

namespace bookforge::cli {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace

Status check_not_an_input(const OutputPath& output, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    if (input == "-" || !same_file(output.path, input)) continue;
    return Error{output.option + " " + output.path + " is " +
                 (input == output.path ? "the input " : "the same file as the input ") + input +
                 "; writing it would destroy the input (nothing was read or written)"};
  }
  return ok_status();
}

Status check_outputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
  struct Checked {
    const OutputPath* output;
    std::filesystem::path file;  // the file it replaces, spelt one way
  };
  std::vector<Checked> checked;
  for (const OutputPath& output : outputs) {
    if (output.path.empty()) continue;
    Result<std::string> replaced = replaced_file(output.path);
    if (!replaced) return Error{output.option + " " + replaced.error().message};
    if (Status s = check_not_an_input(output, inputs); !s.ok()) return s;
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::weakly_canonical(*replaced, ec);
    for (const Checked& other : checked)
      if (other.file == file || same_file(other.output->path, output.path))
        return Error{output.option + " " + output.path + " is the file " + other.output->option + " " +
                     other.output->path + " writes"};
    checked.push_back({&output, file});
  }
  return ok_status();
}

Status check_tmp_dir(const std::string& option, const std::string& dir) {
  if (dir.empty()) return ok_status();
  if (Status s = check_writable_folder(dir); !s.ok())
    return Error{option + " " + dir + ": " + s.error().message};
  return ok_status();
}

}  // namespace bookforge::cli
