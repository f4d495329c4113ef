#include "cli/memory_option.h"

#include "book/memory_size.h"
#include "cli/command.h"

namespace bookforge::cli {

void add_memory_option(CLI::App& command, std::string& memory) {
  command.add_option(
      "--memory", memory,
      "Memory for counting, e.g. 256M or 2G; past it counts are spilled to sorted temporary files "
      "(default: the tables start at 32M and double after every 4 spills, up to a quarter of RAM)");
}

int apply_memory_option(const std::string& memory, book::TallyOptions& tally) {
  tally.memory_budget = book::default_memory_budget();
  if (memory.empty()) return kExitOk;
  Result<uint64_t> bytes = book::parse_memory_size(memory);
  if (!bytes) {
    print_error("--memory: " + bytes.error().message);
    return kExitUsage;
  }
  tally.memory_budget = tally.starting_table_memory = *bytes;
  return kExitOk;
}

}  // namespace bookforge::cli
