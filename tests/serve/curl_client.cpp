#include "serve/curl_client.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace bookforge::test {

HttpAnswer curl_get(const std::string& url, const std::vector<std::string>& extra, int max_seconds) {
  // The head goes to standard error (--dump-header), the status and type after the body (-w).
  std::vector<std::string> argv = {"curl",          "--silent",
                                   "--show-error",  "--path-as-is",
                                   "--max-time",    std::to_string(max_seconds),
                                   "--dump-header", "/dev/stderr",
                                   "--write-out",   "\n%{http_code}\n%{content_type}"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back(url);
  CommandResult r = run_program(argv);
  HttpAnswer answer;
  answer.headers = r.err;
  const size_t type_line = r.out.rfind('\n');
  const size_t status_line = type_line == std::string::npos ? type_line : r.out.rfind('\n', type_line - 1);
  if (type_line == std::string::npos || status_line == std::string::npos) return answer;
  answer.content_type = r.out.substr(type_line + 1);
  answer.status = std::atoi(r.out.substr(status_line + 1, type_line - status_line - 1).c_str());
  answer.body = r.out.substr(0, status_line);
  return answer;
}

nlohmann::ordered_json parse_json(const HttpAnswer& answer) {
  EXPECT_TRUE(answer.content_type.starts_with("application/json")) << answer.content_type;
  nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(answer.body, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << answer.body;
  return parsed;
}

}  // namespace bookforge::test
