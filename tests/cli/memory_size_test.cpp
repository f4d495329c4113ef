#include "cli/memory_size.h"
#include "support/test_support.h"

namespace bookforge::cli {
namespace {

TEST(MemorySize, ParsesSuffixes) {
  EXPECT_EQ(*parse_memory_size("65536"), 65536u);
  EXPECT_EQ(*parse_memory_size("64K"), 65536u);
  EXPECT_EQ(*parse_memory_size("256M"), 256ull << 20);
  EXPECT_EQ(*parse_memory_size("256mb"), 256ull << 20);
  EXPECT_EQ(*parse_memory_size("1.5G"), 3ull << 29);
  EXPECT_EQ(*parse_memory_size("2GiB"), 2ull << 30);
  EXPECT_EQ(*parse_memory_size("1T"), 1ull << 40);
}

TEST(MemorySize, RejectsNonsense) {
  for (const char* bad : {"", "M", "12X", "-5M", "1e400", "abc", "5 M"}) {
    auto r = parse_memory_size(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find("memory size"), std::string::npos);
    }
  }
}

TEST(MemorySize, DefaultIsAQuarterOfRam) {
  EXPECT_GT(default_memory_budget(), 0u);
  EXPECT_GT(peak_resident_bytes(), 0u);
}

}  // namespace
}  // namespace bookforge::cli
