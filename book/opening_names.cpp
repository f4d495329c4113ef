#include "book/opening_names.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace bookforge::book {

Result<OpeningNames> OpeningNames::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{"cannot open the opening table " + path};
  OpeningNames table;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1 || line.empty()) continue;  // the header
    size_t tab1 = line.find('\t');
    size_t tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    OpeningName entry;
    auto [end, ec] = std::from_chars(line.data(), line.data() + std::min(tab1, line.size()), entry.key, 16);
    if (tab2 == std::string::npos || ec != std::errc() || end != line.data() + tab1)
      return Error{path + ":" + std::to_string(number) + ": expected <16 hex key> TAB <ECO> TAB <name>"};
    entry.eco = line.substr(tab1 + 1, tab2 - tab1 - 1);
    entry.name = line.substr(tab2 + 1);
    table.names_.push_back(std::move(entry));
  }
  std::stable_sort(table.names_.begin(), table.names_.end(),
                   [](const OpeningName& a, const OpeningName& b) { return a.key < b.key; });
  return table;
}

std::string OpeningNames::default_path() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("BOOKFORGE_OPENINGS"); env && *env) candidates.emplace_back(env);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "bookforge" / "openings.tsv");
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, ec)) return p.string();
  return {};
}

const OpeningName* OpeningNames::find(uint64_t key) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), key,
                             [](const OpeningName& n, uint64_t k) { return n.key < k; });
  return it != names_.end() && it->key == key ? &*it : nullptr;
}

}  // namespace bookforge::book
