#include "serve/static_files.h"

#include <array>
#include <utility>

namespace bookforge::serve {

std::optional<StaticFile> find_static_file(std::string_view path) {
  return find_static_file(embedded_web_files(), path);
}

std::optional<StaticFile> find_static_file(std::span<const EmbeddedFile> files, std::string_view path) {
  if (path == "/") path = "/index.html";
  for (const EmbeddedFile& file : files)
    if (file.url == path) return StaticFile{file.body, content_type_of(file.url)};
  return std::nullopt;
}

std::string_view content_type_of(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
  }};
  for (const auto& [extension, type] : kTypes)
    if (name.ends_with(extension)) return type;
  // A name without an extension is a text the packages ship (LICENSE, which MIT asks to ship
  // with the code): shown, not downloaded.
  const size_t slash = name.rfind('/');
  if (name.find('.', slash == std::string_view::npos ? 0 : slash) == std::string_view::npos)
    return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace bookforge::serve
