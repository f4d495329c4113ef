#include "cli/memory_option.h"

#include "cli/command.h"
#include "cli/memory_size.h"

namespace bookforge::cli {

namespace {

// Below this the tables hold a few hundred moves and spill all the time.
constexpr uint64_t kMinMemory = uint64_t(64) << 10;

}  // namespace

void add_memory_option(CLI::App& command, std::string& memory) {
  command
      .add_option("--memory", memory,
                  "Memory for counting, whatever the thread count, e.g. 256M or 2G (at least 64K); past it "
                  "counts are spilled to sorted temporary files (default: the tables start at 32M and double "
                  "after every 4 spills, up to a quarter of RAM)")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            Result<uint64_t> bytes = parse_memory_size(text);
            if (!bytes) return bytes.error().message;
            if (*bytes < kMinMemory)
              return "'" + text + "' is less than the least the tally works with (64K)";
            return {};
          },
          "SIZE"));
}

int apply_memory_option(const std::string& memory, counts::TallyOptions& tally) {
  tally.memory_budget = default_memory_budget();
  if (memory.empty()) return kExitOk;
  Result<uint64_t> bytes = parse_memory_size(memory);
  if (!bytes) {
    print_error("--memory: " + bytes.error().message);
    return kExitUsage;
  }
  tally.memory_budget = tally.starting_table_memory = *bytes;
  return kExitOk;
}

}  // namespace bookforge::cli
