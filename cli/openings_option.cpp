#include "cli/openings_option.h"

#include "cli/command.h"

namespace bookforge::cli {

void add_openings_option(CLI::App& command, std::string& openings) {
  command.add_option("--openings", openings,
                     "Opening-name table (default: data-samples/openings.tsv or the installed copy)");
}

int load_opening_names(const std::string& openings, book::OpeningNames& names) {
  const std::string path = openings.empty() ? book::OpeningNames::default_path() : openings;
  if (path.empty()) return kExitOk;
  Result<book::OpeningNames> loaded = book::OpeningNames::load(path);
  if (loaded) {
    names = std::move(*loaded);
  } else if (!openings.empty()) {
    print_error(loaded.error().message);
    return kExitFailure;
  } else {
    print_warning(loaded.error().message);
  }
  return kExitOk;
}

}  // namespace bookforge::cli
