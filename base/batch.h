// One of N contiguous slices of a list, as work is handed out to the machines of a cluster:
// batch i of N (i from 0) of a list of P items is [i*P/N, (i+1)*P/N). The N batches cover the
// list once and in order whatever P is, so outputs written per batch and concatenated in batch
// order equal the output of the whole list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bookforge {

struct Batch {
  uint32_t index = 0;
  uint32_t count = 1;  // 0/1: the whole list

  size_t begin(size_t items) const { return bound(items, index); }
  size_t end(size_t items) const { return bound(items, index + 1); }
  std::string describe() const { return std::to_string(index) + "/" + std::to_string(count); }
  bool operator==(const Batch&) const = default;

 private:
  // i*P/N without overflow, for any list a machine can hold.
  size_t bound(size_t items, uint64_t i) const {
    return size_t((static_cast<unsigned __int128>(items) * i) / count);
  }
};

// "i/N" with 0 <= i < N <= 2^20 and nothing else; an error quotes the text and says what is
// wrong (the caller names the option).
Result<Batch> parse_batch(std::string_view text);

}  // namespace bookforge
