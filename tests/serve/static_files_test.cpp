// The static files: found by exact path only (no path leads outside the fixed set), "/" is the
// page, and each type is told by its extension.
#include <gtest/gtest.h>

#include "serve/static_files.h"

namespace bookforge::serve {
namespace {

constexpr EmbeddedFile kFiles[] = {
    {"/index.html", "<!doctype html>"},
    {"/explorer.js", "export {}"},
    {"/vendor/cm-chessboard/src/Chessboard.js", "class Chessboard {}"},
};

TEST(StaticFiles, ExactPathsOnly) {
  ASSERT_TRUE(find_static_file(kFiles, "/"));
  EXPECT_EQ(find_static_file(kFiles, "/")->body, "<!doctype html>");
  EXPECT_EQ(find_static_file(kFiles, "/explorer.js")->content_type, "text/javascript; charset=utf-8");
  EXPECT_TRUE(find_static_file(kFiles, "/vendor/cm-chessboard/src/Chessboard.js"));
  for (const char* path :
       {"/../../etc/passwd", "/vendor/../../x", "/vendor/../index.html", "//index.html", "/index.html/",
        "index.html", "/INDEX.HTML", "/vendor/cm-chessboard/src/", "", "/%2e%2e/x"})
    EXPECT_FALSE(find_static_file(kFiles, path)) << path;
}

TEST(StaticFiles, ContentTypeByExtension) {
  EXPECT_EQ(content_type_of("/a.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_of("/a.mjs"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_of("/a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_of("/a.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_of("/a.png"), "image/png");
  EXPECT_EQ(content_type_of("/a.json"), "application/json");
  EXPECT_EQ(content_type_of("/a.bin"), "application/octet-stream");
  EXPECT_EQ(content_type_of("/vendor/cm-chessboard/LICENSE"), "text/plain; charset=utf-8");
}

TEST(StaticFiles, TheBuiltInTableServesThePageWhenItIsBuilt) {
  // Whatever serve/web held at build time: every entry is found at its own path.
  for (const EmbeddedFile& file : embedded_web_files()) {
    ASSERT_TRUE(find_static_file(file.url)) << file.url;
    EXPECT_EQ(find_static_file(file.url)->body, file.body);
  }
}

}  // namespace
}  // namespace bookforge::serve
