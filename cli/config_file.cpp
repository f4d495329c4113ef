#include "cli/config_file.h"

namespace bookforge::cli {

void apply_config_file(CLI::App& command, const std::string& path) {
  std::vector<CLI::ConfigItem> items = CLI::ConfigTOML().from_file(path);
  for (const CLI::ConfigItem& item : items) {
    // "++" and "--" mark where a [section] opens and closes.
    if (item.name == "++" || item.name == "--") continue;
    bool ours = item.parents.empty() || (item.parents.size() == 1 && item.parents[0] == command.get_name());
    if (!ours) continue;
    CLI::Option* option = command.get_option_no_throw("--" + item.name);
    if (!option || item.name == "config")
      throw CLI::ValidationError("--config", path + ": unknown setting '" + item.name + "'");
    if (option->count() > 0) continue;
    option->add_result(item.inputs);
    option->run_callback();
  }
}

}  // namespace bookforge::cli
