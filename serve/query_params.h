// A request's query parameters (the shape cpp-httplib decodes them into) and the checked
// reading of one parameter. Errors name the parameter, as every 400 answer of the API does.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/result.h"

namespace bookforge::serve {

using QueryParams = std::multimap<std::string, std::string>;

// The first value of `name`; nullopt when it is absent or empty (a form's empty field means
// "the default", as in lichess's API).
std::optional<std::string> find_param(const QueryParams& params, const std::string& name);

// An integer in [min, max]; `fallback` when absent.
Result<int> int_param(const QueryParams& params, const std::string& name, int fallback, int min, int max);

// A count as lichess takes one: any whole number >= 0 that fits 64 bits, cut to `max`;
// `fallback` when absent.
Result<int> count_param(const QueryParams& params, const std::string& name, int fallback, int max);

// A value quoted for an error message: at most a few dozen characters of what the client sent.
std::string quoted_value(const std::string& value);

}  // namespace bookforge::serve
