// The page's files as compiled into the binary: the table serve/embed_web_files.cmake
// generates at build time from serve/web/ (see serve/CMakeLists.txt for which files).
#pragma once

#include <span>
#include <string_view>

namespace bookforge::serve {

struct EmbeddedFile {
  std::string_view url;  // "/index.html", "/vendor/cm-chessboard/src/Chessboard.js"
  std::string_view body;
};

std::span<const EmbeddedFile> embedded_web_files();

}  // namespace bookforge::serve
