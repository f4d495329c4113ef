#include "store/record_runs.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "counts/varint.h"

namespace bookforge::store {
namespace {

constexpr size_t kHeader = 16;  // major and minor
constexpr size_t kWriteBuffer = 256 << 10;
constexpr size_t kMinReadBuffer = 4 << 10, kMaxReadBuffer = 64 << 10;

void put_i64(char* out, int64_t value) {
  const uint64_t v = uint64_t(value);
  for (int i = 0; i < 8; ++i) out[i] = char(uint8_t(v >> (8 * i)));
}

int64_t get_i64(const char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(in[i])) << (8 * i);
  return int64_t(v);
}

std::string temp_error(const std::string& dir, const char* what, int err) {
  return std::string("cannot ") + what + " a temporary file in " + dir + ": " + std::strerror(err);
}

}  // namespace

// Held records address their bytes with 32 bits.
RecordRuns::RecordRuns(std::string tmp_dir, size_t memory)
    : tmp_dir_(std::move(tmp_dir)), memory_(std::min<size_t>(memory, size_t(1) << 31)) {}
RecordRuns::RecordRuns(RecordRuns&&) noexcept = default;
RecordRuns::~RecordRuns() = default;

Status RecordRuns::add(int64_t major, int64_t minor, std::string_view bytes) {
  held_.push_back({major, minor, uint32_t(bytes_.size()), uint32_t(bytes.size())});
  bytes_.append(bytes);
  ++records_;
  if (bytes_.size() + held_.size() * sizeof(Held) >= memory_) return spill();
  return ok_status();
}

void RecordRuns::sort_held() {
  std::stable_sort(held_.begin(), held_.end(), [](const Held& a, const Held& b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  });
}

Status RecordRuns::spill() {
  if (held_.empty()) return ok_status();
  if (!file_) {
    Result<std::shared_ptr<counts::SpillFile>> made = counts::SpillFile::create(tmp_dir_);
    if (!made) return made.error();
    file_ = std::move(*made);
  }
  sort_held();
  const uint64_t start = file_->end();
  std::string buffer;
  buffer.reserve(kWriteBuffer + kHeader + counts::kMaxVarintBytes);
  uint64_t written = 0;
  auto flush = [&]() -> bool {
    if (!file_->write_at(buffer.data(), buffer.size(), start + written)) return false;
    written += buffer.size();
    buffer.clear();
    return true;
  };
  for (const Held& h : held_) {
    char header[kHeader + counts::kMaxVarintBytes];
    put_i64(header, h.major);
    put_i64(header + 8, h.minor);
    const size_t length = counts::put_varint(reinterpret_cast<uint8_t*>(header + kHeader), h.size);
    buffer.append(header, kHeader + length);
    buffer.append(bytes_, h.offset, h.size);
    if (buffer.size() >= kWriteBuffer && !flush()) return Error{temp_error(tmp_dir_, "write", errno)};
  }
  if (!buffer.empty() && !flush()) return Error{temp_error(tmp_dir_, "write", errno)};
  file_->run_written(start + written);
  runs_.push_back({start, written});
  held_.clear();
  held_.shrink_to_fit();  // a spill is when memory is short: give it back
  bytes_.clear();
  bytes_.shrink_to_fit();
  return ok_status();
}

// One source of records in order: a run on disk, or the records a RecordRuns still holds.
class RecordMerge::Cursor {
 public:
  Cursor(size_t order, const RecordRuns& held) : order_(order), held_(&held) {}
  Cursor(size_t order, std::shared_ptr<counts::SpillFile> file, uint64_t offset, uint64_t bytes,
         size_t buffer)
      : order_(order), file_(std::move(file)), offset_(offset), end_of_run_(bytes), buffer_(buffer) {}

  // Moves to the next record; false at the end or on an error (error() is then set).
  bool next() {
    if (held_) {
      if (at_ == held_->held_.size()) return false;
      const RecordRuns::Held& h = held_->held_[at_++];
      major = h.major;
      minor = h.minor;
      bytes = std::string_view(held_->bytes_).substr(h.offset, h.size);
      return true;
    }
    if (!have(kHeader + 1)) {
      if (error_.empty() && end_ > pos_) return fail("a temporary file shorter than written");
      return false;
    }
    have(kHeader + counts::kMaxVarintBytes);  // a short run's last record may have fewer
    if (!error_.empty()) return false;
    const uint8_t* const start = reinterpret_cast<const uint8_t*>(buffer_.data() + pos_ + kHeader);
    const uint8_t* p = start;
    uint64_t length = 0;
    if (!counts::get_varint(p, reinterpret_cast<const uint8_t*>(buffer_.data() + end_), length))
      return fail("a damaged temporary file");
    const size_t prefix = kHeader + size_t(p - start);
    if (!have(prefix + size_t(length)))
      return error_.empty() ? fail("a temporary file shorter than written") : false;
    major = get_i64(buffer_.data() + pos_);
    minor = get_i64(buffer_.data() + pos_ + 8);
    bytes = std::string_view(buffer_.data() + pos_ + prefix, size_t(length));
    pos_ += prefix + size_t(length);
    return true;
  }
  const std::string& error() const { return error_; }

  size_t order_;
  int64_t major = 0, minor = 0;
  std::string_view bytes;

 private:
  // True when `n` bytes from pos_ are in the buffer, reading more as needed; false at the end
  // of the run or on a read error (error_ set).
  bool have(size_t n) {
    if (end_ - pos_ >= n) return true;
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    if (buffer_.size() < n) buffer_.resize(n);
    while (end_ < buffer_.size() && consumed_ < end_of_run_) {
      const size_t want = size_t(std::min<uint64_t>(buffer_.size() - end_, end_of_run_ - consumed_));
      ssize_t got = ::pread(file_->fd(), buffer_.data() + end_, want, off_t(offset_ + consumed_));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        error_ = got == 0 ? "cannot read a temporary file in " + file_->dir() + ": shorter than written"
                          : temp_error(file_->dir(), "read", errno);
        return false;
      }
      end_ += size_t(got);
      consumed_ += uint64_t(got);
    }
    return end_ - pos_ >= n;
  }
  bool fail(const char* what) {
    error_ = std::string("cannot read ") + what + " in " + file_->dir();
    return false;
  }

  const RecordRuns* held_ = nullptr;
  size_t at_ = 0;
  std::shared_ptr<counts::SpillFile> file_;
  uint64_t offset_ = 0, end_of_run_ = 0, consumed_ = 0;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
  std::string error_;
};

// std::push_heap keeps the largest first: "a after b" puts the smallest record on top, ties to
// the cursor made first (the order records were added in).
bool RecordMerge::after(const Cursor* a, const Cursor* b) {
  if (a->major != b->major) return a->major > b->major;
  if (a->minor != b->minor) return a->minor > b->minor;
  return a->order_ > b->order_;
}

RecordMerge::RecordMerge(const std::vector<RecordRuns*>& sources, size_t memory) {
  size_t runs = 0;
  for (const RecordRuns* source : sources) runs += source->runs_.size();
  const size_t buffer = std::clamp(memory / std::max<size_t>(runs, 1), kMinReadBuffer, kMaxReadBuffer);
  for (RecordRuns* source : sources) {
    for (const RecordRuns::Run& run : source->runs_)
      cursors_.push_back(
          std::make_unique<Cursor>(cursors_.size(), source->file_, run.offset, run.bytes, buffer));
    source->sort_held();
    cursors_.push_back(std::make_unique<Cursor>(cursors_.size(), *source));
  }
}

RecordMerge::RecordMerge(RecordMerge&&) noexcept = default;
RecordMerge::~RecordMerge() = default;

bool RecordMerge::advance(Cursor& cursor) {
  if (cursor.next()) {
    heap_.push_back(&cursor);
    std::push_heap(heap_.begin(), heap_.end(), after);
    return true;
  }
  if (!cursor.error().empty() && error_.empty()) error_ = cursor.error();
  return error_.empty();
}

bool RecordMerge::next() {
  if (!started_) {
    started_ = true;
    for (auto& cursor : cursors_)
      if (!advance(*cursor)) return false;
  } else if (!heap_.empty()) {
    // The record handed out last is done with: its cursor moves on.
    std::pop_heap(heap_.begin(), heap_.end(), after);
    Cursor* done = heap_.back();
    heap_.pop_back();
    if (!advance(*done)) return false;
  }
  if (heap_.empty()) return false;
  const Cursor& top = *heap_.front();
  major_ = top.major;
  minor_ = top.minor;
  bytes_ = top.bytes;
  return true;
}

Status RecordMerge::status() const {
  if (!error_.empty()) return Error{error_};
  return ok_status();
}

}  // namespace bookforge::store
