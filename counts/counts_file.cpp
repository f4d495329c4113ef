#include "counts/counts_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>

#include "base/little_endian.h"
#include "counts/run_record.h"

namespace bookforge::counts {
namespace {

constexpr char kMagic[8] = {'B', 'F', 'C', 'O', 'U', 'N', 'T', 'S'};
constexpr char kEndMagic[8] = {'B', 'F', 'C', '-', 'E', 'N', 'D', '\n'};
constexpr size_t kPrefixBytes = 16;   // magic, version, header length
constexpr size_t kTrailerBytes = 24;  // entry count, end magic, checksum
constexpr size_t kBuffer = 256 << 10;
constexpr uint32_t kMaxHeaderBytes = 64 << 20;

void put_le(std::string& out, uint64_t v, int bytes) {
  unsigned char le[8];
  store_le(le, v, bytes);
  out.append(reinterpret_cast<const char*>(le), size_t(bytes));
}
void put_u32(std::string& out, uint32_t v) { put_le(out, v, 4); }
void put_u64(std::string& out, uint64_t v) { put_le(out, v, 8); }
uint64_t get_le(const char* p, int bytes) {
  return load_le(reinterpret_cast<const unsigned char*>(p), bytes);
}

std::span<const unsigned char> bytes_of(const void* data, size_t size) {
  return {static_cast<const unsigned char*>(data), size};
}

const char* on_off(bool on) { return on ? "on" : "off"; }

std::string escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out.push_back(c);
  }
  return out;
}

std::string unescape(std::string_view value) {
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size()) {
      ++i;
      out.push_back(value[i] == 'n' ? '\n' : value[i]);
    } else {
      out.push_back(value[i]);
    }
  }
  return out;
}

template <class T>
bool parse_number(std::string_view text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// Reads all of [data, data + size) at `offset` of `fd`; false on an error or a short file.
bool read_at(int fd, void* data, size_t size, uint64_t offset) {
  char* out = static_cast<char*>(data);
  for (size_t done = 0; done < size;) {
    ssize_t n = ::pread(fd, out + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
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
  const size_t slash = text.find('/');
  InputPart part;
  if (slash == std::string_view::npos || !parse_number(text.substr(0, slash), part.index) ||
      !parse_number(text.substr(slash + 1), part.count))
    return Error{"--part '" + std::string(text) + "': expected i/N, e.g. 0/4 (the first of 4 parts)"};
  if (part.count < 1 || part.count > (1u << 20))
    return Error{"--part '" + std::string(text) + "': N must be 1 to 1048576"};
  if (part.index >= part.count)
    return Error{"--part '" + std::string(text) + "': i counts from 0 and must be below N"};
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
  auto line = [&](const std::string& name, const std::string& value) {
    out += name + " " + escape(value) + "\n";
  };
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
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return bad("unterminated line");
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol + 1);
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) return bad("line without a value");
    const std::string name(line.substr(0, space));
    const std::string value = unescape(line.substr(space + 1));
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
    if (!ok) return bad("'" + std::string(line) + "'");
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

// --- writer ---

CountsFileWriter::CountsFileWriter(OutputFile file) : file_(std::move(file)), buffer_(kBuffer) {}

Result<CountsFileWriter> CountsFileWriter::create(const std::string& path, const CountsHeader& header) {
  Result<OutputFile> file = OutputFile::create(path);
  if (!file) return file.error();
  CountsFileWriter writer(std::move(*file));
  const std::string text = header.text();
  std::string prefix(kMagic, sizeof kMagic);
  put_u32(prefix, kCountsFormatVersion);
  put_u32(prefix, uint32_t(text.size()));
  writer.put(prefix.data(), prefix.size());
  writer.put(text.data(), text.size());
  return writer;
}

void CountsFileWriter::put(const void* data, size_t size) {
  if (used_ + size > buffer_.size()) flush();
  if (size > buffer_.size()) {
    hasher_.update(bytes_of(data, size));
    if (error_.ok()) error_ = file_.write(data, size);
    bytes_ += size;
    return;
  }
  std::memcpy(buffer_.data() + used_, data, size);
  used_ += size;
}

void CountsFileWriter::flush() {
  hasher_.update(bytes_of(buffer_.data(), used_));
  if (error_.ok()) error_ = file_.write(buffer_.data(), used_);
  bytes_ += used_;
  used_ = 0;
}

void CountsFileWriter::add(const TallyEntry& entry) {
  if (used_ + kMaxRunRecord > buffer_.size()) flush();
  used_ += put_run_record(buffer_.data() + used_, entry, previous_key_);
  previous_key_ = entry.key;
  ++entries_;
}

Result<uint64_t> CountsFileWriter::commit() {
  std::string trailer;
  put_u64(trailer, entries_);
  trailer.append(kEndMagic, sizeof kEndMagic);
  put(trailer.data(), trailer.size());
  flush();
  std::string checksum;
  put_u64(checksum, hasher_.digest());
  if (error_.ok()) error_ = file_.write(checksum.data(), checksum.size());
  if (!error_.ok()) return error_.error();
  if (Status s = file_.commit(); !s.ok()) return s.error();
  return bytes_ + checksum.size();
}

// --- reader ---

Result<std::unique_ptr<CountsFileReader>> CountsFileReader::open(const std::string& path) {
  std::unique_ptr<CountsFileReader> reader(new CountsFileReader(path));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  reader->fd_ = fd;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  const auto damaged = [&](const std::string& why) {
    return Error{path + ": not a complete counts file: " + why};
  };
  char prefix[kPrefixBytes];
  if (size < off_t(kPrefixBytes + kTrailerBytes) || !read_at(fd, prefix, sizeof prefix, 0))
    return damaged("too short");
  if (std::memcmp(prefix, kMagic, sizeof kMagic) != 0) return damaged("no counts magic");
  const uint64_t version = get_le(prefix + 8, 4);
  if (version != kCountsFormatVersion)
    return Error{path + ": counts format version " + std::to_string(version) + ", this bookforge reads " +
                 std::to_string(kCountsFormatVersion)};
  const uint64_t header_bytes = get_le(prefix + 12, 4);
  if (header_bytes > kMaxHeaderBytes || kPrefixBytes + header_bytes + kTrailerBytes > uint64_t(size))
    return damaged("too short for its header");
  std::string header(header_bytes, '\0');
  reader->trailer_.resize(kTrailerBytes);
  if (!read_at(fd, header.data(), header.size(), kPrefixBytes) ||
      !read_at(fd, reader->trailer_.data(), kTrailerBytes, uint64_t(size) - kTrailerBytes))
    return Error{path + ": cannot read: " + std::strerror(errno)};
  if (std::memcmp(reader->trailer_.data() + 8, kEndMagic, sizeof kEndMagic) != 0)
    return damaged("cut short (no end mark)");
  Result<CountsHeader> parsed = CountsHeader::parse(header, path);
  if (!parsed) return parsed.error();
  reader->header_ = std::move(*parsed);
  if (reader->header_.options.fields != counted_field_names())
    return Error{path + ": counted with the fields " + reader->header_.options.fields +
                 "; this bookforge counts " + counted_field_names()};
  reader->prefix_.assign(prefix, sizeof prefix);
  reader->prefix_ += header;
  reader->entries_begin_ = kPrefixBytes + header_bytes;
  reader->entries_end_ = uint64_t(size) - kTrailerBytes;
  reader->entries_ = get_le(reader->trailer_.data(), 8);
  reader->checksum_ = get_le(reader->trailer_.data() + 16, 8);
  // Reopened when the entries are first asked for.
  ::close(reader->fd_);
  reader->fd_ = -1;
  return reader;
}

CountsFileReader::~CountsFileReader() {
  if (fd_ >= 0) ::close(fd_);
}

void CountsFileReader::fail(const std::string& why) {
  if (status_.ok()) status_ = Error{path_ + ": " + why};
  done_ = true;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool CountsFileReader::fill() {
  std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  const uint64_t total = entries_end_ - entries_begin_;
  const size_t want = size_t(std::min<uint64_t>(buffer_.size() - end_, total - consumed_));
  if (want == 0) return true;
  if (!read_at(fd_, buffer_.data() + end_, want, entries_begin_ + consumed_)) {
    fail(std::string("cannot read: ") + (errno ? std::strerror(errno) : "file shorter than before"));
    return false;
  }
  hasher_.update(bytes_of(buffer_.data() + end_, want));
  end_ += want;
  consumed_ += want;
  return true;
}

// At the end of the entries: everything read must be exactly what the trailer promised.
void CountsFileReader::finish() {
  hasher_.update(bytes_of(trailer_.data(), 16));
  if (pos_ != end_ || consumed_ != entries_end_ - entries_begin_)
    fail("damaged: bytes after the last entry");
  else if (read_ != entries_)
    fail("damaged: " + std::to_string(read_) + " entries, the trailer says " + std::to_string(entries_));
  else if (hasher_.digest() != checksum_)
    fail("damaged: the checksum does not match");
  done_ = true;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

size_t CountsFileReader::next_batch(TallyEntry* out, size_t max) {
  if (done_) return 0;
  if (!started_) {
    started_ = true;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      fail(std::string("cannot open: ") + std::strerror(errno));
      return 0;
    }
    buffer_.resize(kBuffer);
    hasher_.update(bytes_of(prefix_.data(), prefix_.size()));
  }
  size_t n = 0;
  while (n < max) {
    if (end_ - pos_ < kMaxRunRecord && !fill()) return n;
    if (pos_ == end_) {
      finish();
      return n;
    }
    const uint8_t* p = buffer_.data() + pos_;
    if (read_ == entries_ || !get_run_record(p, buffer_.data() + end_, out[n], previous_key_) ||
        out[n].key < previous_key_ || key_range(out[n].key, header_.partitions) != header_.range) {
      fail("damaged: an entry cannot be read");
      return n;
    }
    pos_ = size_t(p - buffer_.data());
    previous_key_ = out[n].key;
    ++read_;
    ++n;
  }
  return n;
}

}  // namespace bookforge::counts
