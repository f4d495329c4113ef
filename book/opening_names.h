// Opening names by position: the table data-samples/openings.tsv ("<16 hex key>\t<ECO>\t<name>"
// per line after a header), derived from lichess's chess-openings by
// scripts/make_openings_table.sh. Looked up by Polyglot key, so transpositions find their name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace bookforge::book {

struct OpeningName {
  uint64_t key = 0;
  std::string eco;
  std::string name;
};

class OpeningNames {
 public:
  OpeningNames() = default;
  // Errors name the file and line.
  static Result<OpeningNames> load(const std::string& path);
  // The shipped table: $BOOKFORGE_OPENINGS, else <prefix>/share/bookforge/openings.tsv beside
  // the binary (<prefix>/bin): the installed one, or the build folder's copy (cli/CMakeLists.txt),
  // so that no path of the build machine is compiled in. The empty path if none exists.
  static std::string default_path();

  const OpeningName* find(uint64_t key) const;
  size_t size() const { return names_.size(); }

 private:
  std::vector<OpeningName> names_;  // sorted by key
};

}  // namespace bookforge::book
