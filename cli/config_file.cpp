#include "cli/config_file.h"

#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace bookforge::cli {
namespace {

// "rules.toml:7: " for messages about what stands on line 7.
std::string place(const std::string& path, const toml::source_region& where) {
  return path + ":" + std::to_string(where.begin.line) + ": ";
}

[[noreturn]] void fail(const std::string& message) { throw CLI::ValidationError("--config", message); }

// A scalar as the text a command-line flag would take; nullopt for a value no flag takes.
std::optional<std::string> flag_text(const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (const auto* f = node.as_floating_point()) {
    char text[32];
    auto [end, ec] = std::to_chars(text, text + sizeof text, f->get());
    return std::string(text, end);
  }
  if (const auto* d = node.as_date()) {  // date-from = 2012-05-01, as PGN writes it
    char text[16];
    std::snprintf(text, sizeof text, "%04u.%02u.%02u", unsigned(d->get().year), unsigned(d->get().month),
                  unsigned(d->get().day));
    return std::string(text);
  }
  return std::nullopt;
}

// The flag `name` of `command` takes the value of `node` unless the command line gave it.
void apply_setting(CLI::App& command, const std::string& path, const toml::key& key, const toml::node& node) {
  const std::string name(key.str());
  CLI::Option* option = command.get_option_no_throw("--" + name);
  const bool settable =
      option && option != command.get_help_ptr() && option != command.get_version_ptr() && name != "config";
  if (!settable)
    fail(place(path, key.source()) + "unknown setting '" + name + "' (not a flag of `" + command.get_name() +
         "`; see bookforge " + command.get_name() + " --help)");
  std::vector<std::string> inputs;
  if (const auto* array = node.as_array()) {
    for (const toml::node& element : *array) {
      std::optional<std::string> text = flag_text(element);
      if (!text) fail(place(path, element.source()) + "'" + name + "' takes a list of plain values");
      inputs.push_back(std::move(*text));
    }
  } else if (std::optional<std::string> text = flag_text(node)) {
    inputs.push_back(std::move(*text));
  } else {
    fail(place(path, node.source()) + "'" + name + "' takes a value or a list, not a " +
         (node.is_table() ? "table" : "time"));
  }
  if (option->count() > 0) return;
  try {
    option->add_result(inputs);
    option->run_callback();
  } catch (const CLI::ParseError& e) {
    fail(place(path, node.source()) + e.what());
  }
}

}  // namespace

void apply_config_file(CLI::App& command, const std::string& path) {
  toml::table file;
  try {
    file = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const toml::source_region& where = e.source();
    fail(where.begin.line > 0 ? place(path, where) + std::string(e.description())
                              : path + ": " + std::string(e.description()));
  }
  for (auto&& [name, node] : file) {
    if (!node.is_table()) {
      apply_setting(command, path, name, node);
      continue;
    }
    if (name.str() != command.get_name())
      fail(place(path, name.source()) + "unknown section [" + std::string(name.str()) +
           "] (settings go at the top or in [" + command.get_name() + "])");
    for (auto&& [inner_name, inner_node] : *node.as_table())
      apply_setting(command, path, inner_name, inner_node);
  }
}

}  // namespace bookforge::cli
