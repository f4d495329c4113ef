// The command-line contract every subcommand shares: --help and --version everywhere, bad
// input gets CLI11's message and exit code 2, never a crash; every numeric flag shows its range
// and refuses anything outside it, naming the flag, the value and the range.
#include <regex>
#include <set>
#include <sstream>

#include "support/test_support.h"

namespace bookforge::test {
namespace {

// The names in the subcommand list of a help text.
std::vector<std::string> subcommands_in(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool in_list = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SUBCOMMANDS:", 0) == 0 || line.rfind("Subcommands:", 0) == 0) {
      in_list = true;
      continue;
    }
    std::smatch m;
    if (in_list && std::regex_search(line, m, std::regex("^  ([a-z][a-z0-9-]*)\\b"))) names.push_back(m[1]);
  }
  return names;
}

// Subcommand names as listed in the top-level help.
std::set<std::string> listed_subcommands() {
  std::vector<std::string> names = subcommands_in(run_bookforge({"--help"}).out);
  return {names.begin(), names.end()};
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

// Every command that takes flags: "build", "db add", ...
std::vector<std::vector<std::string>> all_commands() {
  std::vector<std::vector<std::string>> commands;
  for (const std::string& name : subcommands_in(run_bookforge({"--help"}).out)) {
    std::vector<std::string> nested = subcommands_in(run_bookforge({name, "--help"}).out);
    if (nested.empty()) commands.push_back({name});
    for (const std::string& sub : nested) commands.push_back({name, sub});
  }
  return commands;
}

// A numeric flag as the help shows it: "--max-ply INT:0..65534=60", "--min-score FLOAT:0..100",
// "--min-move-share FLOAT:>=0".
struct NumericFlag {
  std::string name;
  std::string range;  // "0..65534", ">=0", or empty when the help shows none
};

std::vector<NumericFlag> numeric_flags(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--help");
  std::vector<NumericFlag> flags;
  std::istringstream in(run_bookforge(args).out);
  // The range, then the default after '=' if there is one: "INT:0..65534=60".
  const std::regex shape(
      "^\\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*)(?:,\\S+)?\\s+(?:INT|UINT|FLOAT|NUMBER)"
      "(?::((?:>=)?-?[0-9.]+(?:\\.\\.[0-9.]+)?))?");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, shape)) flags.push_back({m[1], m[2]});
  }
  return flags;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// One past the end of a decimal range bound: "-1" below 0, "65535" above 65534.
std::string one_below(const std::string& bound) { return std::to_string(std::stoll(bound) - 1); }
std::string one_above(const std::string& bound) {
  // The bound may be 2^64 - 1: ten times it is past it too.
  return bound.size() >= 19 ? bound + "0" : std::to_string(std::stoll(bound) + 1);
}

// Runs `command flag value` and checks it is refused with the flag, the value and a range.
void expect_refused(const std::vector<std::string>& command, const NumericFlag& flag,
                    const std::string& value) {
  std::vector<std::string> args = command;
  args.insert(args.end(), {flag.name, value});
  CommandResult r = run_bookforge(args);
  const std::string what = joined(command) + " " + flag.name + " " + value;
  EXPECT_EQ(r.exit_code, 2) << what << "\n" << r.err;
  EXPECT_NE(r.err.find(flag.name), std::string::npos) << what << "\n" << r.err;
  EXPECT_NE(r.err.find("'" + value + "'"), std::string::npos) << what << "\n" << r.err;
  EXPECT_NE(r.err.find("expected a"), std::string::npos) << what << "\n" << r.err;
  if (!flag.range.empty() && flag.range[0] != '>') {
    EXPECT_NE(r.err.find(flag.range), std::string::npos) << what << "\n" << r.err;
  }
  EXPECT_FALSE(std::regex_search(r.err, std::regex("[0-9]{25}"))) << what << ": an unreadable range\n"
                                                                  << r.err;
}

TEST(Cli, EveryNumericFlagStatesItsRangeAndRefusesWhatIsOutside) {
  size_t checked = 0;
  for (const std::vector<std::string>& command : all_commands()) {
    for (const NumericFlag& flag : numeric_flags(command)) {
      ++checked;
      ASSERT_FALSE(flag.range.empty()) << joined(command) << " " << flag.name << " shows no range in --help";
      expect_refused(command, flag, "abc");
      expect_refused(command, flag, "12x");
      std::smatch m;
      if (std::regex_match(flag.range, m, std::regex("(-?[0-9]+)\\.\\.([0-9]+)"))) {
        expect_refused(command, flag, one_below(m[1]));
        expect_refused(command, flag, one_above(m[2]));
      } else if (std::regex_match(flag.range, m, std::regex(">=(-?[0-9]+)"))) {
        expect_refused(command, flag, one_below(m[1]));
      } else if (!std::regex_match(flag.range, std::regex("[0-9.]+\\.\\.[0-9.]+"))) {
        ADD_FAILURE() << joined(command) << " " << flag.name << ": range '" << flag.range << "'";
      }
    }
  }
  // build alone has more than twenty.
  EXPECT_GT(checked, 40u);
}

}  // namespace
}  // namespace bookforge::test
