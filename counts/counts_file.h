// A counts file: one key range of a counted set of games (`bookforge count`), a spilled run
// (counts/run_file.h) made durable, so that counting can be spread over machines and the
// counts merged into the book one machine would have built.
//
//   offset   bytes  what
//   0        8      magic "BFCOUNTS"
//   8        4      format version, u32 little-endian (kCountsFormatVersion)
//   12       4      header length H, u32 little-endian
//   16       H      header: text lines "name value" (CountsHeader::text(), below)
//   16 + H   ...    the entries of the range in (key, move, slice) order, each a varint record
//                   (counts/run_record.h), the first key's delta taken from 0
//   end - 24 8      the number of entries, u64 little-endian
//   end - 16 8      end magic "BFC-END\n" (a file cut short does not end with it)
//   end - 8  8      checksum, u64 little-endian: ContentHasher (base/content_hash.h) of
//                   every byte before it
//
// The header, one line each, in this order (values escape '\' and line breaks as \\ and \n):
//
//   fields a,b,...          BOOKFORGE_COUNTED_FIELDS' names: another build's files are refused
//   max_ply 60              } the options that shaped the counts (CountsOptions): sets counted
//   count_repeats off       } with different ones are never combined
//   filters none            } (pgn::GameFilter::describe())
//   duplicates dropped      } (or kept: every copy of a game counted)
//   ratings on              } what was kept: counted for a book, the players' ratings only
//   opponent_ratings off    } (on, and slices store: counted for a store, which keeps the
//   slices none             } opponents' ratings and splits the entries by slice, counts/slice.h)
//   partitions K            the set's key ranges (a power of two): range r holds the keys k
//   range r                 with k * K / 2^64 == r, so ranges line up across sets of any K
//   input i/N size hash name   per input: the part counted (0/1: all of it), the decompressed
//                           size and content hash (16 hex digits), the name as given
//   games_read n            games seen in the inputs' parts
//   games_kept n            games counted
//   games_bad n             games skipped as malformed
//   games_skipped n         games left out by --skip-games
//   duplicates_dropped n    copies of a game counted once (with "duplicates dropped")
//
// A book sums a (key, move)'s slices (counted for a store); a store keeps them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/batch.h"
#include "base/framed_file.h"
#include "base/result.h"
#include "counts/entry.h"

namespace bookforge::counts {

inline constexpr uint32_t kCountsFormatVersion = 2;
inline constexpr uint32_t kMaxCountsPartitions = 4096;

// The names of BOOKFORGE_COUNTED_FIELDS, comma-separated, in order.
std::string counted_field_names();

// The key range of `key` among `partitions` (a power of two).
inline uint32_t key_range(uint64_t key, uint32_t partitions) {
  return uint32_t((static_cast<unsigned __int128>(key) * partitions) >> 64);
}

// Which part of an input was counted: the games that start in the index-th of count equal
// byte ranges of its decompressed stream (0/1: the whole input), the ranges as a Batch cuts a
// list of that many bytes.
struct InputPart : Batch {
  // Whether two parts of the same input share bytes (and so games).
  bool overlaps(const InputPart& other) const;
  bool operator==(const InputPart&) const = default;
};
// "i/N" with 0 <= i < N <= 2^20 (base/batch.h); an error says what is wrong.
Result<InputPart> parse_input_part(std::string_view text);

struct CountedInput {
  std::string name;
  InputPart part;
  uint64_t size = 0;  // decompressed bytes of the whole input
  uint64_t hash = 0;  // ContentHasher of them
};

// What shaped the counts: sets are combined only when these are equal.
struct CountsOptions {
  std::string fields = counted_field_names();
  int max_ply = 0;
  bool count_repeats = false;
  std::string filters = "none";
  bool keep_duplicates = false;
  bool ratings = true;
  bool opponent_ratings = true;
  bool slices = true;

  // (name, value) in header order.
  std::vector<std::pair<std::string, std::string>> lines() const;
  bool operator==(const CountsOptions&) const = default;
};

struct CountsHeader {
  CountsOptions options;
  uint32_t partitions = 1;
  uint32_t range = 0;
  std::vector<CountedInput> inputs;
  uint64_t games_read = 0;
  uint64_t games_kept = 0;
  uint64_t games_bad = 0;
  uint64_t games_skipped = 0;
  uint64_t duplicates_dropped = 0;

  std::string text() const;
  // The header of `text`; errors name `file`.
  static Result<CountsHeader> parse(std::string_view text, const std::string& file);
  // What every range file of one set shares: a hash of the header without its range.
  uint64_t set_id() const;
};

// The first option on which `a` and `b` differ, as "max_ply: 60 in A, 40 in B" (A and B the
// names given); nullopt when they agree.
std::optional<std::string> first_difference(const CountsOptions& a, const std::string& a_name,
                                            const CountsOptions& b, const std::string& b_name);

// Writes one counts file under a temporary name, put in place by commit(): a run that fails or
// is killed leaves no file named as complete (base/output_file.h).
class CountsFileWriter {
 public:
  static Result<CountsFileWriter> create(const std::string& path, const CountsHeader& header);
  CountsFileWriter(CountsFileWriter&&) = default;
  // Entries must come in strictly increasing (key, move, slice) order, within the header's range.
  void add(const TallyEntry& entry);
  // Entries [begin, end), as add() one by one would write them, in one reservation.
  void add(const TallyEntry* begin, const TallyEntry* end);
  // The trailer, then the file in place; the file's size.
  Result<uint64_t> commit() { return file_.commit(); }

 private:
  explicit CountsFileWriter(FramedWriter file) : file_(std::move(file)) {}

  FramedWriter file_;
  uint64_t previous_key_ = 0;
};

// Reads a counts file's entries. open() checks the magic, version, header and trailer; the
// checksum and the entry count are checked as the entries are read, and a mismatch stops the
// stream with an error naming the file. The file is opened when the first entry is asked for
// and closed at the end, so that a set of thousands of ranges does not hold a descriptor each.
class CountsFileReader final : public EntryStream {
 public:
  static Result<std::unique_ptr<CountsFileReader>> open(const std::string& path);
  const CountsHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  bool next(TallyEntry& entry) override { return next_batch(&entry, 1) == 1; }
  size_t next_batch(TallyEntry* out, size_t max) override;
  Status status() const override { return file_.status(); }

 private:
  CountsFileReader(FramedReader file, CountsHeader header)
      : file_(std::move(file)), header_(std::move(header)) {}

  FramedReader file_;
  CountsHeader header_;
  uint64_t previous_key_ = 0;
};

}  // namespace bookforge::counts
