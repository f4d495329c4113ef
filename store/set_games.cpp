#include "store/set_games.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "base/framed_file.h"
#include "base/little_endian.h"
#include "counts/varint.h"
#include "store/row.h"

namespace bookforge::store {
namespace {

namespace fs = std::filesystem;

constexpr FrameKind kRecordsFrame = {{'B', 'F', 'S', 'T', 'R', 'E', 'C', 'S'},
                                     {'B', 'F', 'R', '-', 'E', 'N', 'D', '\n'},
                                     kSetGamesVersion,
                                     "game records"};
constexpr FrameKind kPositionsFrame = {{'B', 'F', 'S', 'T', 'P', 'O', 'S', 'N'},
                                       {'B', 'F', 'P', '-', 'E', 'N', 'D', '\n'},
                                       kSetGamesVersion,
                                       "position games"};
constexpr size_t kPositionItemBytes = counts::kMaxVarintBytes + 8 + 4 + 2;
// No record is this long (a game's text is at most 64 MiB, pgn::PipelineOptions): a length past
// it is damage.
constexpr uint64_t kMaxRecordBytes = uint64_t(64) << 20;

std::string path_in(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

template <class T>
bool parse_number(std::string_view text, T& value, int base = 10) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && end == text.data() + text.size();
}

void put_varint(std::string& out, uint64_t value) {
  uint8_t bytes[counts::kMaxVarintBytes];
  out.append(reinterpret_cast<const char*>(bytes), counts::put_varint(bytes, value));
}

}  // namespace

// The games that reach the counts, per input (summed over the workers once they are done).
class SetGamesWriter::CountingSink final : public pgn::GameSink {
 public:
  CountingSink(pgn::GameSink& inner, const std::vector<std::string>& inputs)
      : inner_(inner), inputs_(inputs), games_(inputs.size()) {}
  void on_game(const pgn::ReplayedGame& game) override {
    ++games_[size_t(game.file - inputs_.data())];
    inner_.on_game(game);
  }
  void on_end() override { inner_.on_end(); }
  const std::vector<uint64_t>& games() const { return games_; }

 private:
  pgn::GameSink& inner_;
  const std::vector<std::string>& inputs_;
  std::vector<uint64_t> games_;
};

std::string SetGamesHeader::text() const {
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(set_id));
  std::string out = header_line("set", id) + header_line("game_plies", std::to_string(game_plies));
  for (const Input& in : inputs)
    out += header_line("input", (in.file_size ? std::to_string(*in.file_size) : std::string("-")) + " " +
                                    std::to_string(in.games));
  return out;
}

Result<SetGamesHeader> SetGamesHeader::parse(std::string_view text, const std::string& file) {
  const auto bad = [&](const std::string& why) { return Error{file + ": damaged header: " + why}; };
  Result<std::vector<std::pair<std::string, std::string>>> lines = header_lines(text);
  if (!lines) return bad(lines.error().message);
  SetGamesHeader h;
  bool has_set = false, has_plies = false;
  for (const auto& [name, value] : *lines) {
    bool ok = true;
    if (name == "set") {
      ok = has_set = parse_number(value, h.set_id, 16);
    } else if (name == "game_plies") {
      ok = has_plies = parse_number(value, h.game_plies) && h.game_plies > 0;
    } else if (name == "input") {
      const size_t space = value.find(' ');
      Input in;
      uint64_t size = 0;
      ok = space != std::string::npos && parse_number(std::string_view(value).substr(space + 1), in.games);
      if (ok && value.compare(0, space, "-") != 0) {
        ok = parse_number(std::string_view(value).substr(0, space), size);
        in.file_size = size;
      }
      h.inputs.push_back(in);
    } else {
      ok = false;
    }
    if (!ok) return bad("'" + name + " " + value + "'");
  }
  if (!has_set || !has_plies) return bad(has_set ? "no game_plies" : "no set");
  return h;
}

// --- writing ---

SetGamesWriter::SetGamesWriter(int game_plies, uint64_t memory, int workers, std::string tmp_dir)
    : game_plies_(game_plies), references_(game_plies, memory, workers, std::move(tmp_dir)) {}

SetGamesWriter::~SetGamesWriter() = default;

pgn::SinkFactory SetGamesWriter::wrap_read(pgn::SinkFactory inner, const std::vector<std::string>& inputs) {
  return references_.wrap(std::move(inner), inputs);
}

pgn::SinkFactory SetGamesWriter::wrap_counted(pgn::SinkFactory inner,
                                              const std::vector<std::string>& inputs) {
  return [this, inner = std::move(inner), &inputs](int index) -> pgn::GameSink& {
    return *counting_.emplace_back(std::make_unique<CountingSink>(inner(index), inputs));
  };
}

Result<uint64_t> SetGamesWriter::write(const std::string& dir, const counts::CountsHeader& counts,
                                       const std::vector<uint64_t>& skipped) {
  if (Status s = references_.status(); !s) return s.error();
  SetGamesHeader header;
  header.set_id = counts.set_id();
  header.game_plies = game_plies_;

  // Step 1. The records, by fingerprint as stored, each counted under its input.
  Result<FramedWriter> records =
      FramedWriter::create(path_in(dir, kSetRecordsFile), kRecordsFrame, header.text());
  if (!records) return records.error();
  header.inputs.resize(counts.inputs.size());
  const std::unique_ptr<GameRecordStream> stream = references_.records();
  GameRecord r;
  uint64_t previous = 0;
  std::string item, bytes;
  while (stream->next(r)) {
    item.clear();
    put_varint(item, r.fingerprint - previous);
    previous = r.fingerprint;
    const bool left_out = std::binary_search(skipped.begin(), skipped.end(), r.fingerprint);
    put_varint(item, uint64_t(r.source) * 2 + left_out);
    put_varint(item, r.number);
    encode_game_record(r, bytes);
    put_varint(item, bytes.size());
    item += bytes;
    records->put_item(item.data(), item.size());
    // Each game once, under the input of its first copy, as db add counts it (the duplicate
    // filter passes whichever copy a worker reaches first).
    if (!left_out) ++header.inputs[size_t(r.source)].games;
  }
  if (Status s = stream->status(); !s) return s.error();
  Result<uint64_t> records_bytes = records->commit();
  if (!records_bytes) return records_bytes.error();

  // Step 2. The inputs' sizes, and with every copy counted, the games each passed on.
  for (size_t i = 0; i < counts.inputs.size(); ++i) {
    SetGamesHeader::Input& in = header.inputs[i];
    const std::string& name = counts.inputs[i].name;
    if (name != "-") {
      std::error_code ec;
      in.file_size = fs::file_size(name, ec);
      if (ec) return Error{name + ": cannot find its size: " + ec.message()};
    }
    if (counts.options.keep_duplicates) {
      in.games = 0;
      for (const auto& sink : counting_) in.games += sink->games()[i];
    }
  }

  // Step 3. The positions' games, by (key, fingerprint) as stored, under the full header.
  Result<FramedWriter> positions =
      FramedWriter::create(path_in(dir, kSetPositionsFile), kPositionsFrame, header.text());
  if (!positions) return positions.error();
  Result<std::unique_ptr<PositionGameStream>> games = references_.positions();
  if (!games) return games.error();
  PositionGame g;
  uint64_t previous_key = 0;
  while ((*games)->next(g)) {
    uint8_t* p = positions->reserve(kPositionItemBytes);
    const uint8_t* const start = p;
    p += counts::put_varint(p, g.key - previous_key);
    previous_key = g.key;
    store_le(p, g.fingerprint, 8);
    store_le(p + 8, g.date, 4);
    store_le(p + 12, g.rating, 2);
    positions->wrote(size_t(p + 14 - start));
  }
  if (Status s = (*games)->status(); !s) return s.error();
  Result<uint64_t> positions_bytes = positions->commit();
  if (!positions_bytes) return positions_bytes.error();
  return *records_bytes + *positions_bytes;
}

// --- reading ---

namespace {

class RecordsReader final : public SetRecordsReader {
 public:
  explicit RecordsReader(FramedReader file) : file_(std::move(file)) {}
  bool next(GameRecord& r) override {
    if (!file_.fill(4 * counts::kMaxVarintBytes)) return false;
    if (file_.data() == file_.end()) {
      file_.finish();
      return false;
    }
    const uint8_t* p = file_.data();
    uint64_t delta = 0, source = 0, length = 0;
    if (!counts::get_varint(p, file_.end(), delta) || !counts::get_varint(p, file_.end(), source) ||
        !counts::get_varint(p, file_.end(), r.number) || !counts::get_varint(p, file_.end(), length) ||
        length > kMaxRecordBytes)
      return damaged();
    const size_t head = size_t(p - file_.data());
    if (!file_.fill(head + length)) return false;
    if (size_t(file_.end() - file_.data()) < head + length) return damaged();
    p = file_.data() + head;
    if (!decode_game_record({reinterpret_cast<const char*>(p), size_t(length)}, r)) return damaged();
    // Ascending as stored (signed), each game once.
    const uint64_t fingerprint = fingerprint_ + delta;
    if (any_ && int64_t(fingerprint) <= int64_t(fingerprint_)) return damaged();
    any_ = true;
    fingerprint_ = r.fingerprint = fingerprint;
    r.source = int64_t(source / 2);
    skipped_ = source % 2 == 1;
    file_.consumed_item(p + length);
    return true;
  }
  Status status() const override { return file_.status(); }
  bool skipped() const override { return skipped_; }

 private:
  bool damaged() {
    file_.fail("damaged: a game record cannot be read");
    return false;
  }
  FramedReader file_;
  uint64_t fingerprint_ = 0;
  bool any_ = false;
  bool skipped_ = false;
};

class PositionsReader final : public PositionGameStream {
 public:
  explicit PositionsReader(FramedReader file) : file_(std::move(file)) {}
  bool next(PositionGame& g) override {
    if (!file_.fill(kPositionItemBytes)) return false;
    if (file_.data() == file_.end()) {
      file_.finish();
      return false;
    }
    const uint8_t* p = file_.data();
    uint64_t delta = 0;
    if (!counts::get_varint(p, file_.end(), delta) || file_.end() - p < 14) return damaged();
    g.key = key_ + delta;
    g.fingerprint = load_le(p, 8);
    g.date = uint32_t(load_le(p + 8, 4));
    g.rating = uint16_t(load_le(p + 12, 2));
    // Ascending as stored (signed key, then signed fingerprint), each pair once.
    if (any_ && (key_to_db(g.key) < key_to_db(key_) ||
                 (g.key == key_ && int64_t(g.fingerprint) <= int64_t(fingerprint_))))
      return damaged();
    any_ = true;
    key_ = g.key;
    fingerprint_ = g.fingerprint;
    file_.consumed_item(p + 14);
    return true;
  }
  Status status() const override { return file_.status(); }

 private:
  bool damaged() {
    file_.fail("damaged: a position's game cannot be read");
    return false;
  }
  FramedReader file_;
  uint64_t key_ = 0;
  uint64_t fingerprint_ = 0;
  bool any_ = false;
};

Result<std::pair<FramedReader, SetGamesHeader>> open_file(const std::string& dir, const char* name,
                                                          const FrameKind& kind) {
  const std::string path = path_in(dir, name);
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{dir + ": no " + name +
                 ": not counted for a store by this bookforge (count --for store writes it; count --merge "
                 "keeps only the counts)"};
  Result<FramedReader> file = FramedReader::open(path, kind);
  if (!file) return file.error();
  Result<SetGamesHeader> header = SetGamesHeader::parse(file->header(), path);
  if (!header) return header.error();
  return std::pair{std::move(*file), std::move(*header)};
}

}  // namespace

Result<SetGames> open_set_games(const std::string& dir, uint64_t set_id) {
  Result<std::pair<FramedReader, SetGamesHeader>> records = open_file(dir, kSetRecordsFile, kRecordsFrame);
  if (!records) return records.error();
  Result<std::pair<FramedReader, SetGamesHeader>> positions =
      open_file(dir, kSetPositionsFile, kPositionsFrame);
  if (!positions) return positions.error();
  const SetGamesHeader& r = records->second;
  SetGames set{dir, std::move(positions->second)};
  if (r.set_id != set_id)
    return Error{path_in(dir, kSetRecordsFile) + ": belongs to another set than the counts beside it"};
  if (set.header.set_id != r.set_id || set.header.game_plies != r.game_plies)
    return Error{path_in(dir, kSetPositionsFile) + ": belongs to another set than " + kSetRecordsFile};
  return set;
}

Result<std::unique_ptr<SetRecordsReader>> read_set_records(const SetGames& set) {
  Result<FramedReader> file = FramedReader::open(path_in(set.dir, kSetRecordsFile), kRecordsFrame);
  if (!file) return file.error();
  return std::unique_ptr<SetRecordsReader>(std::make_unique<RecordsReader>(std::move(*file)));
}

Result<std::unique_ptr<PositionGameStream>> read_set_positions(const SetGames& set) {
  Result<FramedReader> file = FramedReader::open(path_in(set.dir, kSetPositionsFile), kPositionsFrame);
  if (!file) return file.error();
  return std::unique_ptr<PositionGameStream>(std::make_unique<PositionsReader>(std::move(*file)));
}

}  // namespace bookforge::store
