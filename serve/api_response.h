// What an endpoint answers, before HTTP: a status, a content type and a body. JSON bodies are
// written by json::json_text, which replaces invalid UTF-8 (an error message may quote bytes a
// client sent), so every answer is valid JSON.
#pragma once

#include <string>
#include <string_view>

#include "json/json.h"

namespace bookforge::serve {

inline constexpr int kStatusOk = 200;
inline constexpr int kStatusBadRequest = 400;
inline constexpr int kStatusNotFound = 404;
inline constexpr int kStatusConflict = 409;
inline constexpr int kStatusInternalError = 500;
inline constexpr int kStatusUnavailable = 503;

inline constexpr std::string_view kJsonType = "application/json";

struct ApiResponse {
  int status = kStatusOk;
  std::string content_type{kJsonType};
  std::string body;
};

ApiResponse json_response(const json::Json& value);
// {"error": message}
ApiResponse error_response(int status, std::string_view message);

}  // namespace bookforge::serve
