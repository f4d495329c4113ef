#include "cli/memory_size.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace bookforge::cli {

Result<uint64_t> parse_memory_size(std::string_view text) {
  auto fail = [&] {
    return Error{"invalid memory size '" + std::string(text) + "' (expected e.g. 512M, 2G, 65536)"};
  };
  double number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || number < 0 || !std::isfinite(number)) return fail();
  std::string suffix(end, text.data() + text.size());
  for (char& c : suffix) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() >= 2 && suffix.substr(suffix.size() - 2) == "IB")
    suffix.resize(suffix.size() - 2);
  else if (suffix.size() >= 2 && suffix.back() == 'B')
    suffix.pop_back();
  double scale = 1;
  if (suffix == "K")
    scale = 1024.0;
  else if (suffix == "M")
    scale = 1024.0 * 1024;
  else if (suffix == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!suffix.empty() && suffix != "B")
    return fail();
  double bytes = number * scale;
  if (bytes >= 18446744073709551615.0) return fail();
  return uint64_t(bytes);
}

uint64_t default_memory_budget() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return uint64_t(256) << 20;
  return uint64_t(pages) * uint64_t(page_size) / 4;
}

uint64_t peak_resident_bytes() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return uint64_t(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace bookforge::cli
