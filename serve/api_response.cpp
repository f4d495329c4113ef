#include "serve/api_response.h"

namespace bookforge::serve {

ApiResponse json_response(const json::Json& value) {
  return {kStatusOk, std::string(kJsonType), json::json_text(value)};
}

ApiResponse error_response(int status, std::string_view message) {
  return {status, std::string(kJsonType), json::json_text({{"error", message}})};
}

}  // namespace bookforge::serve
