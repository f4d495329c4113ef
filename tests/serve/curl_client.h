// HTTP requests by curl (a client nobody on this project wrote) for the end-to-end tests: the
// status, content type, headers and body of one request.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bookforge::test {

struct HttpAnswer {
  int status = 0;  // 0: no answer (curl failed or timed out)
  std::string content_type;
  std::string headers;  // the response's head, as received
  std::string body;
};

// One GET (or another request, by curl's options in `extra`, such as {"-X", "POST"}),
// given up after `max_seconds`.
HttpAnswer curl_get(const std::string& url, const std::vector<std::string>& extra = {}, int max_seconds = 60);

// The body as JSON; the calling test fails unless it is JSON served as such.
nlohmann::ordered_json parse_json(const HttpAnswer& answer);

}  // namespace bookforge::test
