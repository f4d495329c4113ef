// The static files the server answers with: a fixed set compiled in (serve/embedded_web_files.h),
// looked up by exact path, so no request path can reach the file system.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "serve/embedded_web_files.h"

namespace bookforge::serve {

struct StaticFile {
  std::string_view body;
  std::string_view content_type;
};

// The file served at `path` ("/" serves "/index.html"), or nullopt.
std::optional<StaticFile> find_static_file(std::string_view path);
// The same over any table (the tests give their own).
std::optional<StaticFile> find_static_file(std::span<const EmbeddedFile> files, std::string_view path);

// The Content-Type for a file name's extension; "application/octet-stream" for others.
std::string_view content_type_of(std::string_view name);

}  // namespace bookforge::serve
