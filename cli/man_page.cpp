#include "cli/man_page.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "cli/command.h"

namespace bookforge::cli {
namespace {

// Text as roff prints it literally: a backslash is roff's escape, a line starting with a dot or
// a quote would be a request, and "\-" keeps an option's hyphens plain ASCII (searchable, and
// pasted into a shell as typed). A line break stays one, as --help prints it (`count`'s usage
// lines), where roff would otherwise fill the lines into one paragraph.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else if (c == '\n')
      out += "\n.br\n";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string sentence(std::string_view text) { return roff(text) + (text.ends_with('.') ? "\n" : ".\n"); }

std::string bold(std::string_view text) { return "\\fB" + roff(text) + "\\fR"; }
std::string italic(std::string_view text) { return "\\fI" + roff(text) + "\\fR"; }

bool same_option(const OptionOutline& a, const OptionOutline& b) {
  return a.names == b.names && a.description == b.description;
}

bool listed(const std::vector<OptionOutline>& options, const OptionOutline& option) {
  return std::any_of(options.begin(), options.end(),
                     [&](const OptionOutline& o) { return same_option(o, option); });
}

bool every_command_has(const CommandOutline& command, const OptionOutline& option) {
  return listed(command.options, option) &&
         std::all_of(command.subcommands.begin(), command.subcommands.end(),
                     [&](const CommandOutline& sub) { return every_command_has(sub, option); });
}

// The program's options that every command takes too (--help, --version): listed once.
std::vector<OptionOutline> shared_options(const CommandOutline& program) {
  std::vector<OptionOutline> shared;
  for (const OptionOutline& option : program.options)
    if (every_command_has(program, option)) shared.push_back(option);
  return shared;
}

// "-o, --output TEXT ..." in bold and italics, then "(required)".
std::string option_heading(const OptionOutline& option) {
  std::string line;
  for (const std::string& name : option.names) {
    if (!line.empty()) line += ", ";
    line += option.positional ? italic(name) : bold(name);
  }
  if (!option.type.empty()) line += " " + italic(option.type);
  if (option.repeatable) line += " ...";
  if (option.required) line += " (required)";
  return line;
}

std::string option_entry(const OptionOutline& option) {
  std::string entry = ".TP\n" + option_heading(option) + "\n" + roff(option.description) + "\n";
  if (!option.default_value.empty()) entry += ".br\nDefault: " + roff(option.default_value) + ".\n";
  if (!option.needs.empty()) entry += ".br\nNeeds " + roff(join_words(option.needs, ", ")) + ".\n";
  if (!option.excludes.empty()) entry += ".br\nNot with " + roff(join_words(option.excludes, ", ")) + ".\n";
  return entry;
}

// "bookforge build -o TEXT [options] [files ...]": required flags spelled out, the rest summed up.
std::string synopsis(const std::string& program, const CommandOutline& command) {
  std::string line = bold(command_line_name(program, command.path));
  if (!command.subcommands.empty()) line += " " + italic("command");
  bool optional_flags = false;
  for (const OptionOutline& option : command.options) {
    if (option.positional) continue;
    if (!option.required) {
      optional_flags = true;
      continue;
    }
    line += " " + bold(option.names.back());
    if (!option.type.empty()) line += " " + italic(option.type);
  }
  if (optional_flags) line += " [" + italic("options") + "]";
  for (const OptionOutline& option : command.options) {
    if (!option.positional) continue;
    std::string argument = italic(option.names.front()) + (option.repeatable ? " ..." : "");
    line += " " + (option.required ? argument : "[" + argument + "]");
  }
  return ".PP\n" + line + "\n";
}

// One section: what the command does, how it is called, its arguments, its options by group.
std::string command_section(const std::string& program, const CommandOutline& command,
                            const std::vector<OptionOutline>& shared) {
  std::string text = ".SH \"" + roff(command_line_name(program, command.path)) + "\"\n";
  text += sentence(command.description);
  text += synopsis(program, command);
  if (!command.aliases.empty()) text += ".PP\nAlso called " + bold(join_words(command.aliases, ", ")) + ".\n";
  if (!command.subcommands.empty()) {
    std::vector<std::string> names;
    for (const CommandOutline& sub : command.subcommands) names.push_back(bold(sub.name));
    text += ".PP\nCommands (each in its section below): " + join_words(names, ", ") + ".\n";
  }

  std::vector<std::string> groups;  // in the order the command declares them
  bool has_arguments = false;
  for (const OptionOutline& option : command.options) {
    if (option.positional) {
      has_arguments = true;
    } else if (std::find(groups.begin(), groups.end(), option.group) == groups.end() &&
               !listed(shared, option)) {
      groups.push_back(option.group);
    }
  }
  if (has_arguments) {
    text += ".SS Arguments\n";
    for (const OptionOutline& option : command.options)
      if (option.positional) text += option_entry(option);
  }
  for (const std::string& group : groups) {
    text += ".SS \"" + roff(group) + "\"\n";
    for (const OptionOutline& option : command.options)
      if (!option.positional && option.group == group && !listed(shared, option))
        text += option_entry(option);
  }
  for (const CommandOutline& sub : command.subcommands) text += command_section(program, sub, shared);
  return text;
}

std::string exit_status() {
  return ".SH \"EXIT STATUS\"\n.TP\n" + std::to_string(kExitOk) + "\nSuccess.\n.TP\n" +
         std::to_string(kExitFailure) +
         "\nThe run could not complete: a file could not be read or written, an input is corrupt, an engine "
         "failed.\n.TP\n" +
         std::to_string(kExitUsage) + "\nBad command\\-line input; the message says which flag or value.\n";
}

// "bookforge: chess opening books from game databases" names the program once already.
std::string_view summary(const CommandOutline& program) {
  std::string_view description = program.description;
  const std::string prefix = program.name + ": ";
  if (description.starts_with(prefix)) description.remove_prefix(prefix.size());
  return description;
}

}  // namespace

std::string man_page(const CommandOutline& program, const std::string& version) {
  std::string upper_name = program.name;
  std::transform(upper_name.begin(), upper_name.end(), upper_name.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  const std::vector<OptionOutline> shared = shared_options(program);

  std::string page =
      ".TH " + upper_name + " 1 \"\" \"" + roff(program.name + " " + version) + "\" \"User Commands\"\n";
  page += ".nh\n";  // no hyphenation: a word broken at a hyphen reads like an option's dash
  page += ".SH NAME\n" + roff(program.name) + " \\- " + roff(summary(program)) + "\n";
  page += ".SH SYNOPSIS\n.B " + roff(program.name) + "\n.I command\n.RI [ options ]\n";
  std::vector<std::string> names;
  for (const CommandOutline& sub : program.subcommands) names.push_back(bold(sub.name));
  page += ".SH DESCRIPTION\n" + bold(program.name) +
          " has these commands, each in a section below: " + join_words(names, ", ") + ".\n";

  page += ".SH OPTIONS\n";
  if (!shared.empty()) page += "Every command takes these:\n";
  for (const OptionOutline& option : shared) page += option_entry(option);
  for (const OptionOutline& option : program.options)
    if (!listed(shared, option)) page += option_entry(option);
  for (const CommandOutline& sub : program.subcommands) page += command_section(program.name, sub, shared);
  page += exit_status();
  return page;
}

}  // namespace bookforge::cli
