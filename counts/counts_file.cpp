#include "counts/counts_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>

#include "counts/run_record.h"

namespace bookforge::counts {
namespace {

std::span<const unsigned char> bytes_of(const void* data, size_t size) {
  return {static_cast<const unsigned char*>(data), size};
}

const char* on_off(bool on) { return on ? "on" : "off"; }

template <class T>
bool parse_number(std::string_view text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string counted_field_names() {
  std::string names;
#define BOOKFORGE_NAME(name, type, merge, column, one_game, without_slot) \
  names += names.empty() ? #name : "," #name;
  BOOKFORGE_COUNTED_FIELDS(BOOKFORGE_NAME)
#undef BOOKFORGE_NAME
  return names;
}

bool InputPart::overlaps(const InputPart& other) const {
  // [index/count, (index+1)/count) and the other's intersect, in whole numbers.
  const uint64_t a = index, n = count, b = other.index, m = other.count;
  return a * m < (b + 1) * n && b * n < (a + 1) * m;
}

Result<InputPart> parse_input_part(std::string_view text) {
  Result<Batch> batch = parse_batch(text);
  if (!batch) return Error{"--part " + batch.error().message};
  InputPart part;
  static_cast<Batch&>(part) = *batch;
  return part;
}

std::vector<std::pair<std::string, std::string>> CountsOptions::lines() const {
  return {{"fields", fields},
          {"max_ply", std::to_string(max_ply)},
          {"count_repeats", on_off(count_repeats)},
          {"filters", filters},
          {"duplicates", keep_duplicates ? "kept" : "dropped"},
          {"ratings", on_off(ratings)},
          {"opponent_ratings", on_off(opponent_ratings)},
          {"slices", slices ? "store" : "none"}};
}

std::optional<std::string> first_difference(const CountsOptions& a, const std::string& a_name,
                                            const CountsOptions& b, const std::string& b_name) {
  const auto la = a.lines(), lb = b.lines();
  for (size_t i = 0; i < la.size(); ++i)
    if (la[i].second != lb[i].second)
      return la[i].first + ": " + la[i].second + " in " + a_name + ", " + lb[i].second + " in " + b_name;
  return std::nullopt;
}

std::string CountsHeader::text() const {
  std::string out;
  auto line = [&](const std::string& name, const std::string& value) { out += header_line(name, value); };
  for (const auto& [name, value] : options.lines()) line(name, value);
  line("partitions", std::to_string(partitions));
  line("range", std::to_string(range));
  for (const CountedInput& in : inputs) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(in.hash));
    line("input", in.part.describe() + " " + std::to_string(in.size) + " " + hash + " " + in.name);
  }
  line("games_read", std::to_string(games_read));
  line("games_kept", std::to_string(games_kept));
  line("games_bad", std::to_string(games_bad));
  line("games_skipped", std::to_string(games_skipped));
  line("duplicates_dropped", std::to_string(duplicates_dropped));
  return out;
}

Result<CountsHeader> CountsHeader::parse(std::string_view text, const std::string& file) {
  CountsHeader h;
  std::map<std::string, std::string> options;
  const auto bad = [&](const std::string& why) { return Error{file + ": damaged counts header: " + why}; };
  Result<std::vector<std::pair<std::string, std::string>>> lines = header_lines(text);
  if (!lines) return bad(lines.error().message);
  for (const auto& [name, value] : *lines) {
    const std::pair<const char*, uint64_t*> counts[] = {{"games_read", &h.games_read},
                                                        {"games_kept", &h.games_kept},
                                                        {"games_bad", &h.games_bad},
                                                        {"games_skipped", &h.games_skipped},
                                                        {"duplicates_dropped", &h.duplicates_dropped}};
    const auto count =
        std::find_if(std::begin(counts), std::end(counts), [&](const auto& c) { return name == c.first; });
    bool ok = true;
    if (count != std::end(counts)) {
      ok = parse_number(value, *count->second);
    } else if (name == "partitions") {
      ok = parse_number(value, h.partitions);
    } else if (name == "range") {
      ok = parse_number(value, h.range);
    } else if (name == "input") {
      // "i/N size hash name": the name last, since it may hold spaces.
      CountedInput in;
      const size_t a = value.find(' '), b = value.find(' ', a + 1), c = value.find(' ', b + 1);
      Result<InputPart> part = parse_input_part(value.substr(0, a));
      ok = c != std::string::npos && part.ok() && parse_number(value.substr(a + 1, b - a - 1), in.size);
      if (ok) {
        const std::string hex = value.substr(b + 1, c - b - 1);
        auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), in.hash, 16);
        ok = ec == std::errc() && end == hex.data() + hex.size();
        in.part = *part;
        in.name = value.substr(c + 1);
      }
      h.inputs.push_back(std::move(in));
    } else {
      options[name] = value;
    }
    if (!ok) return bad("'" + name + " " + value + "'");
  }
  // The options: every one there, with a value this version knows.
  CountsOptions& o = h.options;
  for (const auto& [name, value] : o.lines())
    if (!options.count(name)) return bad("no " + name);
  o.fields = options["fields"];
  if (!parse_number(options["max_ply"], o.max_ply)) return bad("max_ply " + options["max_ply"]);
  o.filters = options["filters"];
  auto flag = [&](const std::string& name, const char* on, const char* off, bool& out) {
    out = options[name] == on;
    return out || options[name] == off;
  };
  if (!flag("count_repeats", "on", "off", o.count_repeats) ||
      !flag("duplicates", "kept", "dropped", o.keep_duplicates) || !flag("ratings", "on", "off", o.ratings) ||
      !flag("opponent_ratings", "on", "off", o.opponent_ratings) ||
      !flag("slices", "store", "none", o.slices))
    return bad("an option with an unknown value");
  if (h.partitions < 1 || h.partitions > kMaxCountsPartitions || (h.partitions & (h.partitions - 1)) != 0 ||
      h.range >= h.partitions)
    return bad("range " + std::to_string(h.range) + " of " + std::to_string(h.partitions));
  return h;
}

uint64_t CountsHeader::set_id() const {
  CountsHeader any_range = *this;
  any_range.range = 0;
  const std::string t = any_range.text();
  ContentHasher hasher;
  hasher.update(bytes_of(t.data(), t.size()));
  return hasher.digest();
}

namespace {
constexpr FrameKind kCountsFrame = {{'B', 'F', 'C', 'O', 'U', 'N', 'T', 'S'},
                                    {'B', 'F', 'C', '-', 'E', 'N', 'D', '\n'},
                                    kCountsFormatVersion,
                                    "counts"};
}  // namespace

// --- writer ---

Result<CountsFileWriter> CountsFileWriter::create(const std::string& path, const CountsHeader& header) {
  Result<FramedWriter> file = FramedWriter::create(path, kCountsFrame, header.text());
  if (!file) return file.error();
  return CountsFileWriter(std::move(*file));
}

void CountsFileWriter::add(const TallyEntry& entry) { add(&entry, &entry + 1); }

void CountsFileWriter::add(const TallyEntry* begin, const TallyEntry* end) {
  constexpr size_t kPerReserve = FramedWriter::kMaxReserve / kMaxRunRecord;
  while (begin != end) {
    const size_t n = std::min<size_t>(size_t(end - begin), kPerReserve);
    uint8_t* out = file_.reserve(n * kMaxRunRecord);
    size_t bytes = 0;
    uint64_t previous = previous_key_;
    for (const TallyEntry* e = begin; e != begin + n; ++e) {
      bytes += put_run_record(out + bytes, *e, previous);
      previous = e->key;
    }
    file_.wrote(bytes, n);
    previous_key_ = previous;
    begin += n;
  }
}

// --- reader ---

Result<std::unique_ptr<CountsFileReader>> CountsFileReader::open(const std::string& path) {
  Result<FramedReader> file = FramedReader::open(path, kCountsFrame);
  if (!file) return file.error();
  Result<CountsHeader> header = CountsHeader::parse(file->header(), path);
  if (!header) return header.error();
  if (header->options.fields != counted_field_names())
    return Error{path + ": counted with the fields " + header->options.fields + "; this bookforge counts " +
                 counted_field_names()};
  return std::unique_ptr<CountsFileReader>(new CountsFileReader(std::move(*file), std::move(*header)));
}

size_t CountsFileReader::next_batch(TallyEntry* out, size_t max) {
  size_t n = 0;
  while (n < max) {
    if (!file_.fill(kMaxRunRecord)) return n;
    const uint8_t* p = file_.data();
    const uint8_t* end = file_.end();
    if (p == end) {
      file_.finish();
      return n;
    }
    // Every record that starts kMaxRunRecord bytes or more before the end of the bytes at hand
    // ends within them: those are read in one go, and the file asked for more only after them.
    const uint8_t* whole_before = end - std::min<size_t>(size_t(end - p), kMaxRunRecord - 1);
    size_t read = 0;
    do {
      TallyEntry& e = out[n + read];
      if (!get_run_record(p, end, e, previous_key_) || e.key < previous_key_ ||
          key_range(e.key, header_.partitions) != header_.range) {
        file_.fail("damaged: an entry cannot be read");
        return n + read;
      }
      previous_key_ = e.key;
      ++read;
    } while (n + read < max && p < whole_before);
    file_.consumed_items(p, read);
    n += read;
  }
  return n;
}

}  // namespace bookforge::counts
