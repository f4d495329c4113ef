// Checks on a run's outputs, made before it reads anything: a mistake in an output path fails
// at once instead of after a long read, and never costs an input.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace bookforge::cli {

struct OutputPath {
  std::string option;  // as the user wrote it: "-o", "--report", ...
  std::string path;    // empty: not asked for
};

// `output` is not one of `inputs` (the same file, however named: another spelling, a symlink or
// a hard link). '-' (standard input) is no file.
Status check_not_an_input(const OutputPath& output, const std::vector<std::string>& inputs);

// Every output can be written as an OutputFile (base/output_file.h: a regular file or nothing
// yet, in a folder that exists and can be written), is not one of `inputs`, and no two outputs
// are the same file.
Status check_outputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs);

// A folder for temporary files, if one is given (`dir` not empty): it exists and can be written.
Status check_tmp_dir(const std::string& option, const std::string& dir);

}  // namespace bookforge::cli
