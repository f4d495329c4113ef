#include "serve/api_response.h"

namespace bookforge::serve {

std::string json_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

ApiResponse json_response(const nlohmann::ordered_json& value) {
  return {kStatusOk, std::string(kJsonType), json_text(value)};
}

ApiResponse error_response(int status, std::string_view message) {
  return {status, std::string(kJsonType), json_text({{"error", message}})};
}

}  // namespace bookforge::serve
