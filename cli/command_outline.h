// The command line as plain data, read from the CLI11 definitions the subcommands register: what
// `bookforge manual` (the man page) and `bookforge completion bash` print, so that neither
// repeats a flag by hand. Hidden options and subcommands (CLI11's empty group) are left out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// What a flag or argument takes after it, as far as completion can tell from CLI11.
enum class ValueKind {
  kNone,    // a switch: nothing follows
  kPath,    // free text, usually a file name (TEXT, or TEXT checked as an existing file or folder)
  kChoice,  // one of `choices`
  kOther,   // a number, a size, a date: nothing to offer
};

struct OptionOutline {
  std::vector<std::string> names;  // as typed: "-o", "--output", "--no-drop-losing"; a positional's name
  std::string type;                // CLI11's type text, e.g. "INT:0..65535", "TEXT:{never,auto,always}"
  std::string description;
  std::string default_value;  // empty when CLI11 holds none
  std::string group;          // "Options", "Game filters", ...
  std::vector<std::string> excludes;
  std::vector<std::string> needs;
  std::vector<std::string> choices;
  ValueKind value = ValueKind::kNone;
  bool required = false;
  bool repeatable = false;  // takes several values (CLI11 prints "...")
  bool positional = false;
};

struct CommandOutline {
  std::vector<std::string> path;  // {} for the program, {"db", "add"} for `bookforge db add`
  std::string name;
  std::vector<std::string> aliases;
  std::string description;
  std::vector<OptionOutline> options;  // flags first, then positionals, in declaration order
  std::vector<CommandOutline> subcommands;
};

// The outline of `app` and everything under it, subcommands sorted by name.
CommandOutline outline_command(const CLI::App& app);

// The values CLI11 checks a text against, read from its type text: "TEXT:{never,auto,always}"
// (CLI::IsMember) or "ENUM:{white, black or both}" (a validator describing its own set) give
// the words; a type without a {set} of plain words gives none.
std::vector<std::string> choices_from_type(const std::string& type);

// The words with `separator` between them: {"db", "add"} and " " give "db add".
std::string join_words(const std::vector<std::string>& words, std::string_view separator);

// "bookforge db add" for path {"db", "add"} of program "bookforge".
std::string command_line_name(const std::string& program, const std::vector<std::string>& path);

}  // namespace bookforge::cli
