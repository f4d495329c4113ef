#include "book/tally/run_file.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "book/temp_file.h"

namespace bookforge::book {
namespace {

constexpr size_t kWriteBuffer = 256 << 10;
constexpr size_t kMaxRecord = 2 + 7 * 10;  // a move and seven varints of at most 10 bytes

size_t put_varint(uint8_t* out, uint64_t value) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = uint8_t(value) | 0x80;
    value >>= 7;
  }
  out[n++] = uint8_t(value);
  return n;
}

bool write_all(int fd, const uint8_t* data, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pwrite(fd, data + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

// The used slots of [begin, end) as a run at `offset` of `file`, every slot left empty: zeroed
// on the way, while its cache line is at hand, instead of in a pass of its own over the whole
// table afterwards.
template <class Slot>
Result<SpilledRun> drain_slots(std::shared_ptr<TempFile> file, uint64_t offset, Slot* begin, Slot* end) {
  // The used slots, gathered into a buffer and written a buffer at a time. Every slot is copied
  // and kept only if used: a table is about a third empty, at random places, and a branch per
  // slot would be mispredicted that often.
  constexpr size_t kSlots = kWriteBuffer / sizeof(Slot);
  std::unique_ptr<Slot[]> buffer(new Slot[kSlots]);
  SpilledRun run{file, std::is_same_v<Slot, SmallSlot> ? RunFormat::kSmallSlots : RunFormat::kCompactSlots,
                 offset, 0, 0};
  size_t used = 0;
  bool ok = true;
  auto flush = [&] {
    ok = ok && write_all(file->fd(), reinterpret_cast<const uint8_t*>(buffer.get()), used * sizeof(Slot),
                         run.offset + run.bytes);
    run.bytes += used * sizeof(Slot);
    run.entries += used;
    used = 0;
  };
  for (Slot* s = begin; s != end; ++s) {
    buffer[used] = *s;
    used += s->move != 0;
    std::memset(static_cast<void*>(s), 0, sizeof(Slot));
    if (used == kSlots) flush();
  }
  if (used > 0) flush();
  if (!ok) return Error{"cannot write a temporary file in " + file->dir() + ": " + std::strerror(errno)};
  return run;
}

}  // namespace

Result<SpilledRun> drain_slot_run(std::shared_ptr<TempFile> file, SmallSlot* begin, SmallSlot* end) {
  auto run = drain_slots(file, file->end_, begin, end);
  if (run) file->end_ = run->offset + run->bytes;
  return run;
}

Result<SpilledRun> drain_slot_run(std::shared_ptr<TempFile> file, CompactSlot* begin, CompactSlot* end) {
  auto run = drain_slots(file, file->end_, begin, end);
  if (run) file->end_ = run->offset + run->bytes;
  return run;
}

Result<std::shared_ptr<TempFile>> TempFile::create(const std::string& dir) {
  Result<int> fd = create_unnamed_file(dir, "bookforge-run");
  if (!fd) return fd.error();
  return std::shared_ptr<TempFile>(new TempFile(*fd, dir));
}

TempFile::~TempFile() { ::close(fd_); }

RunWriter::RunWriter(std::shared_ptr<TempFile> file)
    : file_(std::move(file)), buffer_(new uint8_t[kWriteBuffer]), offset_(file_->end_) {}

void RunWriter::add(const TallyEntry& e) {
  if (used_ + kMaxRecord > kWriteBuffer) flush();
  uint8_t* out = buffer_.get() + used_;
  size_t n = put_varint(out, e.key - previous_key_);
  out[n++] = uint8_t(e.move);
  out[n++] = uint8_t(e.move >> 8);
  n += put_varint(out + n, e.first_ply);
  n += put_varint(out + n, e.white_wins);
  n += put_varint(out + n, e.draws);
  n += put_varint(out + n, e.black_wins);
  n += put_varint(out + n, e.unknown_results());
  n += put_varint(out + n, e.rated_games);
  n += put_varint(out + n, e.rating_sum);
  used_ += n;
  previous_key_ = e.key;
  ++entries_;
}

void RunWriter::flush() {
  if (error_.empty() && !write_all(file_->fd(), buffer_.get(), used_, offset_ + bytes_))
    error_ = "cannot write a temporary file in " + file_->dir() + ": " + std::strerror(errno);
  bytes_ += used_;
  used_ = 0;
}

Result<SpilledRun> RunWriter::finish() {
  flush();
  if (!error_.empty()) return Error{error_};
  buffer_.reset();
  file_->end_ = offset_ + bytes_;
  return SpilledRun{file_, RunFormat::kVarint, offset_, bytes_, entries_};
}

RunReader::RunReader(SpilledRun run, size_t buffer_size)
    : run_(std::move(run)), buffer_(std::max(buffer_size, 2 * kMaxRecord)) {}

bool RunReader::fill() {
  // Keep the unread tail and append after it, so a record never straddles the buffer's end.
  std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  while (end_ < buffer_.size() && consumed_ < run_.bytes) {
    size_t want = std::min<uint64_t>(buffer_.size() - end_, run_.bytes - consumed_);
    ssize_t n = ::pread(run_.file->fd(), buffer_.data() + end_, want, off_t(run_.offset + consumed_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = "cannot read a temporary file in " + run_.file->dir() + ": " +
               (n == 0 ? std::string("file shorter than written") : std::strerror(errno));
      return false;
    }
    end_ += size_t(n);
    consumed_ += uint64_t(n);
  }
  return true;
}

bool RunReader::next(TallyEntry& e) { return next_batch(&e, 1) == 1; }

size_t RunReader::next_batch(TallyEntry* out, size_t max) {
  switch (run_.format) {
    case RunFormat::kSmallSlots:
      return next_slots<SmallSlot>(out, max);
    case RunFormat::kCompactSlots:
      return next_slots<CompactSlot>(out, max);
    case RunFormat::kVarint:
      break;
  }
  size_t n = 0;
  while (n < max && next_varint(out[n])) ++n;
  return n;
}

template <class Slot>
size_t RunReader::next_slots(TallyEntry* out, size_t max) {
  size_t n = 0;
  while (n < max && error_.empty() && entries_read_ < run_.entries) {
    if (end_ - pos_ < sizeof(Slot) && (!fill() || end_ - pos_ < sizeof(Slot))) {
      if (error_.empty()) error_ = "temporary run file in " + run_.file->dir() + " is damaged";
      break;
    }
    // Every whole slot in the buffer, up to what is asked and what the run holds.
    size_t take = std::min<uint64_t>({max - n, (end_ - pos_) / sizeof(Slot), run_.entries - entries_read_});
    for (size_t i = 0; i < take; ++i, pos_ += sizeof(Slot)) {
      Slot slot;
      std::memcpy(static_cast<void*>(&slot), buffer_.data() + pos_, sizeof(Slot));
      slot.fill_entry(out[n + i]);
    }
    n += take;
    entries_read_ += take;
  }
  return n;
}

bool RunReader::next_varint(TallyEntry& e) {
  if (!error_.empty() || entries_read_ == run_.entries) return false;
  if (end_ - pos_ < kMaxRecord && !fill()) return false;
  // A record is at most kMaxRecord bytes, so unless the run ends here, all of it is buffered.
  const uint8_t* p = buffer_.data() + pos_;
  const uint8_t* end = buffer_.data() + end_;
  bool ok = true;
  auto varint = [&]() -> uint64_t {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p == end) break;
      uint8_t b = *p++;
      value |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    ok = false;
    return 0;
  };
  uint64_t delta = varint();
  if (end - p < 2) ok = false;
  uint16_t move = ok ? uint16_t(p[0] | (p[1] << 8)) : 0;
  p += ok ? 2 : 0;
  uint64_t ply = varint(), white = varint(), draws = varint(), black = varint(), unknown = varint(),
           rated = varint(), rating = varint();
  if (!ok) {
    error_ = "temporary run file in " + run_.file->dir() + " is damaged";
    return false;
  }
  pos_ = size_t(p - buffer_.data());
  e.key = previous_key_ + delta;
  e.move = move;
  e.first_ply = uint16_t(ply);
  e.white_wins = uint32_t(white);
  e.draws = uint32_t(draws);
  e.black_wins = uint32_t(black);
  e.games = uint32_t(white + draws + black + unknown);
  e.rated_games = uint32_t(rated);
  e.rating_sum = rating;
  previous_key_ = e.key;
  ++entries_read_;
  return true;
}

Status RunReader::status() const {
  if (!error_.empty()) return Error{error_};
  return ok_status();
}

}  // namespace bookforge::book
