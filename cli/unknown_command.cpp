#include "cli/unknown_command.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace bookforge::cli {
namespace {

// Edits (insert, delete, replace, or swap two neighbours) that turn a into b: "buidl" is one
// swap from "build".
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The subcommand the word was probably meant to be: the nearest within two edits (and fewer
// than the word's letters), or the only one it begins.
std::optional<std::string> closest(std::string_view word, const std::vector<const CLI::App*>& commands) {
  std::optional<std::string> best;
  size_t best_distance = std::min<size_t>(3, word.size());
  std::vector<std::string> starting_with_word;
  for (const CLI::App* command : commands) {
    std::vector<std::string> names = command->get_aliases();
    names.push_back(command->get_name());
    for (const std::string& name : names) {
      if (name.starts_with(word)) starting_with_word.push_back(command->get_name());
      if (size_t d = edit_distance(word, name); d < best_distance)
        best_distance = d, best = command->get_name();
    }
  }
  if (!best && starting_with_word.size() == 1) best = starting_with_word.front();
  return best;
}

}  // namespace

std::optional<std::string> unknown_command_message(const CLI::App& root, int argc, const char* const* argv) {
  const CLI::App* command = &root;
  std::string path;  // "db " for a word after `db`
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.starts_with("-")) return std::nullopt;
    std::vector<const CLI::App*> subcommands = command->get_subcommands([](const CLI::App*) { return true; });
    auto named = std::find_if(subcommands.begin(), subcommands.end(),
                              [&](const CLI::App* sub) { return sub->check_name(word); });
    if (named != subcommands.end()) {
      command = *named;
      path += command->get_name() + " ";
      continue;
    }
    // A word where a file may stand is not a subcommand.
    if (subcommands.empty() || command->get_require_subcommand_min() == 0) return std::nullopt;
    std::string message = "unknown command '" + path + word + "'";
    if (std::optional<std::string> guess = closest(word, subcommands))
      message += " (did you mean '" + path + *guess + "'?)";
    message += "; the " + path + "commands are:";
    for (const CLI::App* sub : subcommands) message += " " + sub->get_name();
    return message;
  }
  return std::nullopt;
}

}  // namespace bookforge::cli
