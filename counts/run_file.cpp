#include "counts/run_file.h"

#include "counts/run_record.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

namespace bookforge::counts {
namespace {

constexpr size_t kWriteBuffer = 256 << 10;
constexpr size_t kMaxRecord = kMaxRunRecord;

// The used slots of [begin, end) as a run at `offset` of `file`, every slot left empty: zeroed
// on the way, while its cache line is at hand, instead of in a pass of its own over the whole
// table afterwards.
template <class Slot>
Result<SpilledRun> drain_slots(std::shared_ptr<SpillFile> file, uint64_t offset, Slot* begin, Slot* end) {
  // The used slots, gathered into a buffer and written a buffer at a time. Every slot is copied
  // and kept only if used: a table is about a third empty, at random places, and a branch per
  // slot would be mispredicted that often.
  constexpr size_t kSlots = kWriteBuffer / sizeof(Slot);
  std::unique_ptr<Slot[]> buffer(new Slot[kSlots]);
  constexpr RunFormat kFormat = std::is_same_v<Slot, SmallSlot>     ? RunFormat::kSmallSlots
                                : std::is_same_v<Slot, CompactSlot> ? RunFormat::kCompactSlots
                                                                    : RunFormat::kStoreSlots;
  SpilledRun run{file, kFormat, offset, 0, 0};
  size_t used = 0;
  bool ok = true;
  auto flush = [&] {
    ok = ok && file->write_at(buffer.get(), used * sizeof(Slot), run.offset + run.bytes);
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

Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, SmallSlot* begin, SmallSlot* end) {
  auto run = drain_slots(file, file->end(), begin, end);
  if (run) file->run_written(run->offset + run->bytes);
  return run;
}

Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, CompactSlot* begin, CompactSlot* end) {
  auto run = drain_slots(file, file->end(), begin, end);
  if (run) file->run_written(run->offset + run->bytes);
  return run;
}

Result<SpilledRun> drain_slot_run(std::shared_ptr<SpillFile> file, StoreSlot* begin, StoreSlot* end) {
  auto run = drain_slots(file, file->end(), begin, end);
  if (run) file->run_written(run->offset + run->bytes);
  return run;
}

RunWriter::RunWriter(std::shared_ptr<SpillFile> file)
    : file_(std::move(file)), buffer_(new uint8_t[kWriteBuffer]), offset_(file_->end()) {}

void RunWriter::add(const TallyEntry& e) {
  if (used_ + kMaxRecord > kWriteBuffer) flush();
  used_ += put_run_record(buffer_.get() + used_, e, previous_key_);
  previous_key_ = e.key;
  ++entries_;
}

void RunWriter::flush() {
  if (error_.empty() && !file_->write_at(buffer_.get(), used_, offset_ + bytes_))
    error_ = "cannot write a temporary file in " + file_->dir() + ": " + std::strerror(errno);
  bytes_ += used_;
  used_ = 0;
}

Result<SpilledRun> RunWriter::finish() {
  flush();
  if (!error_.empty()) return Error{error_};
  buffer_.reset();
  file_->run_written(offset_ + bytes_);
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
    case RunFormat::kStoreSlots:
      return next_slots<StoreSlot>(out, max);
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
      fill_entry(slot, out[n + i]);
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
  if (!get_run_record(p, buffer_.data() + end_, e, previous_key_)) {
    error_ = "temporary run file in " + run_.file->dir() + " is damaged";
    return false;
  }
  pos_ = size_t(p - buffer_.data());
  previous_key_ = e.key;
  ++entries_read_;
  return true;
}

Status RunReader::status() const {
  if (!error_.empty()) return Error{error_};
  return ok_status();
}

}  // namespace bookforge::counts
