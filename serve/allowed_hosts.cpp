#include "serve/allowed_hosts.h"

#include <arpa/inet.h>

#include <algorithm>

namespace bookforge::serve {
namespace {

std::string lower(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return result;
}

// "[::1]:8080" -> "::1", "Localhost:8080" -> "localhost", "::1" (an address as --host takes
// it) -> "::1"; nullopt for what is not a host (an empty value, a bracket left open).
std::optional<std::string> host_name(std::string_view value) {
  if (value.starts_with('[')) {
    const size_t close = value.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = value.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return std::nullopt;
    return lower(value.substr(1, close - 1));
  }
  // One colon: a port follows; more: an IPv6 address without brackets.
  if (std::count(value.begin(), value.end(), ':') == 1) value = value.substr(0, value.find(':'));
  if (value.empty()) return std::nullopt;
  return lower(value);
}

bool is_ip_address(const std::string& name) {
  unsigned char parsed[sizeof(in6_addr)];
  return ::inet_pton(AF_INET, name.c_str(), parsed) == 1 || ::inet_pton(AF_INET6, name.c_str(), parsed) == 1;
}

}  // namespace

AllowedHosts::AllowedHosts(std::string_view listen_host) : names_{"localhost", "127.0.0.1", "::1"} {
  const std::optional<std::string> own = host_name(listen_host);
  any_address_ = !own || *own == "0.0.0.0" || *own == "::";
  if (own && !any_address_ && std::find(names_.begin(), names_.end(), *own) == names_.end())
    names_.push_back(*own);
}

bool AllowedHosts::allows(const std::optional<std::string>& host) const {
  if (!host) return true;
  const std::optional<std::string> name = host_name(*host);
  if (!name) return false;
  return std::find(names_.begin(), names_.end(), *name) != names_.end() ||
         (any_address_ && is_ip_address(*name));
}

std::string AllowedHosts::describe() const {
  std::string text;
  for (const std::string& name : names_) {
    if (!text.empty()) text += ", ";
    text += name.find(':') != std::string::npos ? "[" + name + "]" : name;
  }
  if (any_address_) text += " and this machine's addresses";
  return text;
}

}  // namespace bookforge::serve
