#include "cli/command_outline.h"

#include <algorithm>
#include <string_view>

namespace bookforge::cli {
namespace {

bool hidden(const CLI::Option& option) { return option.get_group().empty(); }

std::vector<std::string> option_names(const CLI::Option& option) {
  if (option.get_positional() && !option.nonpositional()) return {option.get_name(true)};
  std::vector<std::string> names;
  for (const std::string& s : option.get_snames()) names.push_back("-" + s);
  for (const std::string& l : option.get_lnames()) names.push_back("--" + l);
  return names;
}

// Options held by pointer in a std::set: named, and sorted so that the text does not depend on
// where they sit in memory.
std::vector<std::string> names_of(const std::set<CLI::Option*>& options) {
  std::vector<std::string> names;
  for (const CLI::Option* option : options)
    if (!hidden(*option)) names.push_back(option->get_name());
  std::sort(names.begin(), names.end());
  return names;
}

// The validator descriptions CLI11 gives for file-system checks (CLI::ExistingFile, ...).
bool names_a_path(std::string_view check) {
  return check == "FILE" || check == "DIR" || check == "PATH(existing)" || check == "PATH(non-existing)";
}

ValueKind value_kind(const OptionOutline& option, int items_expected_max) {
  if (items_expected_max == 0) return ValueKind::kNone;
  if (!option.choices.empty()) return ValueKind::kChoice;
  const size_t colon = option.type.find(':');
  if (option.type.substr(0, colon) != "TEXT") return ValueKind::kOther;
  if (colon == std::string::npos || names_a_path(std::string_view(option.type).substr(colon + 1)))
    return ValueKind::kPath;
  return ValueKind::kOther;
}

OptionOutline outline_option(const CLI::Option& option) {
  OptionOutline out;
  out.names = option_names(option);
  out.type = option.get_type_name();
  out.description = option.get_description();
  out.default_value = option.get_default_str();
  out.group = option.get_group();
  out.excludes = names_of(option.get_excludes());
  out.needs = names_of(option.get_needs());
  out.choices = choices_from_type(out.type);
  out.value = value_kind(out, option.get_items_expected_max());
  out.required = option.get_required();
  out.repeatable = option.get_items_expected_max() > 1;
  out.positional = option.get_positional() && !option.nonpositional();
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Splits `text` at every `separator`.
std::vector<std::string_view> split(std::string_view text, std::string_view separator) {
  std::vector<std::string_view> parts;
  for (size_t at; (at = text.find(separator)) != std::string_view::npos;
       text.remove_prefix(at + separator.size()))
    parts.push_back(text.substr(0, at));
  parts.push_back(text);
  return parts;
}

// `app`, reached from the program by the subcommand names `path`.
CommandOutline outline_at(const CLI::App& app, std::vector<std::string> path) {
  CommandOutline out;
  out.path = std::move(path);
  out.name = app.get_name();
  out.aliases = app.get_aliases();
  out.description = app.get_description();
  for (const CLI::Option* option : app.get_options())
    if (!hidden(*option)) out.options.push_back(outline_option(*option));
  std::stable_partition(out.options.begin(), out.options.end(),
                        [](const OptionOutline& option) { return !option.positional; });

  // Named and shown: CLI11's option groups are nameless subcommands, a hidden one has no group.
  std::vector<const CLI::App*> subcommands = app.get_subcommands(
      [](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_group().empty(); });
  std::sort(subcommands.begin(), subcommands.end(),
            [](const CLI::App* a, const CLI::App* b) { return a->get_name() < b->get_name(); });
  for (const CLI::App* sub : subcommands) {
    std::vector<std::string> sub_path = out.path;
    sub_path.push_back(sub->get_name());
    out.subcommands.push_back(outline_at(*sub, std::move(sub_path)));
  }
  return out;
}

}  // namespace

std::vector<std::string> choices_from_type(const std::string& type) {
  const size_t open = type.find(":{");
  if (open == std::string::npos || type.back() != '}') return {};
  const std::string_view set = std::string_view(type).substr(open + 2, type.size() - open - 3);
  std::vector<std::string> choices;
  for (std::string_view listed : split(set, ","))
    for (std::string_view word : split(listed, " or ")) {
      word = trim(word);
      // Prose rather than a set of words: nothing to offer.
      if (word.empty() || word.find_first_of(" {}") != std::string_view::npos) return {};
      choices.emplace_back(word);
    }
  return choices;
}

CommandOutline outline_command(const CLI::App& app) { return outline_at(app, {}); }

std::string join_words(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

std::string command_line_name(const std::string& program, const std::vector<std::string>& path) {
  return path.empty() ? program : program + " " + join_words(path, " ");
}

}  // namespace bookforge::cli
