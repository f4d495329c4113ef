// The command-line contract every subcommand shares: --help and --version everywhere, bad
// input gets CLI11's message and exit code 2, never a crash.
#include <regex>
#include <set>
#include <sstream>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

// Subcommand names as listed in the top-level help.
std::set<std::string> listed_subcommands() {
  CommandResult r = run_bookforge({"--help"});
  std::set<std::string> names;
  std::istringstream in(r.out);
  std::string line;
  bool in_list = false;
  while (std::getline(in, line)) {
    if (line.rfind("SUBCOMMANDS:", 0) == 0 || line.rfind("Subcommands:", 0) == 0) {
      in_list = true;
      continue;
    }
    std::smatch m;
    if (in_list && std::regex_search(line, m, std::regex("^  ([a-z][a-z0-9-]*)\\b"))) names.insert(m[1]);
  }
  return names;
}

TEST(Cli, TopLevelHelpAndVersion) {
  CommandResult help = run_bookforge({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("bookforge"), std::string::npos);
  CommandResult version = run_bookforge({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_TRUE(std::regex_search(version.out, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")));
}

TEST(Cli, EverySubcommandHasHelpAndVersion) {
  auto names = listed_subcommands();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    CommandResult help = run_bookforge({name, "--help"});
    EXPECT_EQ(help.exit_code, 0) << name;
    EXPECT_NE(help.out.find(name), std::string::npos) << name;
    CommandResult version = run_bookforge({name, "--version"});
    EXPECT_EQ(version.exit_code, 0) << name;
    EXPECT_FALSE(version.out.empty()) << name;
  }
}

TEST(Cli, UnknownSubcommandIsUsageError) {
  CommandResult r = run_bookforge({"no-such-command"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(r.err.empty());
}

TEST(Cli, MissingSubcommandIsUsageError) {
  CommandResult r = run_bookforge({});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, UnknownFlagOnEverySubcommandIsUsageError) {
  for (const std::string& name : listed_subcommands()) {
    CommandResult r = run_bookforge({name, "--no-such-flag-anywhere"});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_FALSE(r.err.empty()) << name;
  }
}

}  // namespace
}  // namespace bookforge::test
