#include "base/batch.h"

#include "base/text_fields.h"

namespace bookforge {

Result<Batch> parse_batch(std::string_view text) {
  constexpr uint32_t kMaxBatches = 1u << 20;
  const size_t slash = text.find('/');
  Batch batch;
  if (slash == std::string_view::npos || !parse_whole(text.substr(0, slash), batch.index) ||
      !parse_whole(text.substr(slash + 1), batch.count))
    return Error{"'" + std::string(text) + "': expected i/N, e.g. 0/4 (the first of 4 batches)"};
  if (batch.count < 1 || batch.count > kMaxBatches)
    return Error{"'" + std::string(text) + "': N must be 1 to " + std::to_string(kMaxBatches)};
  if (batch.index >= batch.count)
    return Error{"'" + std::string(text) + "': i counts from 0 and must be below N"};
  return batch;
}

}  // namespace bookforge
