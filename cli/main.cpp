// The bookforge executable: wires the registered subcommands and maps errors to exit codes.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/interrupt.h"
#include "cli/unknown_command.h"

namespace bookforge::cli {
namespace {

struct Entry {
  const char* name;
  SetupFn setup;
};

std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

int g_exit_code = kExitOk;

// CLI11 says "--db: At Most 1 required but received 2" of a one-value option given twice: said
// plainly instead, since the user gave two values and one will not be silently picked.
std::optional<std::string> repeated_option_message(const CLI::ArgumentMismatch& e) {
  const std::string text = e.what();
  const std::string marker = ": At Most 1 required but received ";
  const size_t at = text.find(marker);
  if (at == std::string::npos) return std::nullopt;
  return text.substr(0, at) + " given " + text.substr(at + marker.size()) + " times; give it once";
}

}  // namespace

CommandRegistration::CommandRegistration(const char* name, SetupFn setup) {
  registry().push_back({name, setup});
}

CLI::App* add_subcommand(CLI::App& root, const std::string& name, const std::string& description) {
  CLI::App* sub = root.add_subcommand(name, description);
  sub->set_version_flag("--version", BOOKFORGE_VERSION);
  return sub;
}

void set_exit_code(int code) { g_exit_code = code; }

}  // namespace bookforge::cli

int main(int argc, char** argv) {
  using namespace bookforge::cli;
  install_interrupt_handlers();
  CLI::App app{"bookforge: chess opening books from game databases", "bookforge"};
  app.set_version_flag("--version", BOOKFORGE_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  auto entries = registry();
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::string_view(a.name) < std::string_view(b.name);
  });
  for (const Entry& e : entries) e.setup(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ArgumentMismatch& e) {
    if (std::optional<std::string> message = repeated_option_message(e)) {
      print_error(*message);
      return kExitUsage;
    }
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      if (std::optional<std::string> message = unknown_command_message(app, argc, argv)) {
        print_error(*message);
        return kExitUsage;
      }
    }
    int code = app.exit(e);  // prints help, version or the error message
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitFailure;
  }
  return g_exit_code;
}
