#include "book/abk/reader.h"

#include <string_view>

#include "book/abk/format.h"
#include "chess/board.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::book {
namespace {

// "e2e4", "a7a8q": the entry's move as UCI text, for uci_to_move (which also takes castling as
// the king's two-square move, the way ABK stores it).
std::string entry_uci(const AbkEntry& e) {
  std::string text;
  for (uint8_t square : {e.from, e.to}) {
    text += char('a' + square % 8);
    text += char('1' + square / 8);
  }
  static constexpr std::string_view kPromotions = " rnbq";
  if (e.promotion != 0) text += kPromotions[size_t(e.promotion < 0 ? -e.promotion : e.promotion)];
  return text;
}

class AbkWalk {
 public:
  AbkWalk(std::span<const unsigned char> bytes, const std::string& name)
      : bytes_(bytes),
        name_(name),
        entries_((bytes.size() - kAbkHeaderSize) / kAbkEntrySize),
        seen_(entries_) {}

  Result<std::vector<AbkMove>> run() {
    if (entries_ == 0) return std::move(moves_);
    // Depth first without recursion (a damaged book may be one long line): each frame is a
    // position and the entry of its next move still to read.
    stack_.push_back(Frame{kAbkFirstEntry, -1, chess::Board()});
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next == kAbkNoLink) {
        stack_.pop_back();
        continue;
      }
      const int32_t index = top.next;
      if (Status s = check_link(index, top.linked_from); !s.ok()) return s.error();
      seen_[size_t(index - kAbkFirstEntry)] = true;
      const AbkEntry e = decode_abk_entry(bytes_.data() + offset(index));
      top.next = e.next_sibling;
      top.linked_from = index;
      if (e.from > 63 || e.to > 63 || e.promotion < -4 || e.promotion > 4)
        return fail(index, "square or promotion out of range (from " + std::to_string(e.from) + ", to " +
                               std::to_string(e.to) + ", promotion " + std::to_string(e.promotion) + ")");
      const chess::Move move = chess::uci_to_move(top.board, entry_uci(e));
      if (move == chess::Move::none())
        return fail(index, "move " + entry_uci(e) + " is not legal in " + top.board.fen());
      moves_.push_back(
          AbkMove{top.board.key(), chess::move_to_polyglot(move), e.priority, e.games, e.wins, e.losses});
      if (e.first_child != kAbkNoLink) {
        chess::Board after = top.board;  // copied: push_back may move `top`
        chess::UndoInfo undo;
        after.make_move(move, undo);
        stack_.push_back(Frame{e.first_child, index, after});
      }
    }
    return std::move(moves_);
  }

 private:
  struct Frame {
    int32_t next;         // the entry to read next in this position, or kAbkNoLink
    int32_t linked_from;  // the entry whose link led to `next` (-1 for the root)
    chess::Board board;
  };

  static size_t offset(int32_t index) { return size_t(index) * kAbkEntrySize; }

  Status check_link(int32_t index, int32_t from) const {
    const int64_t last = int64_t(kAbkFirstEntry) + int64_t(entries_) - 1;
    if (index < kAbkFirstEntry || index > last) {
      if (from < 0) return Error{name_ + ": the book has no entry " + std::to_string(index)};
      return fail(from, "links to entry " + std::to_string(index) + ", outside the book's entries " +
                            std::to_string(kAbkFirstEntry) + ".." + std::to_string(last));
    }
    if (seen_[size_t(index - kAbkFirstEntry)])
      return fail(from, "links to entry " + std::to_string(index) +
                            ", which was already reached (a loop, or two lines sharing entries)");
    return ok_status();
  }

  Error fail(int32_t index, const std::string& what) const {
    return Error{name_ + ": entry " + std::to_string(index) + " (byte offset " +
                 std::to_string(offset(index)) + "): " + what};
  }

  std::span<const unsigned char> bytes_;
  const std::string& name_;
  size_t entries_;
  std::vector<bool> seen_;
  std::vector<Frame> stack_;
  std::vector<AbkMove> moves_;
};

}  // namespace

Result<std::vector<AbkMove>> read_abk(std::span<const unsigned char> bytes, const std::string& name) {
  if (!has_abk_magic(bytes))
    return Error{name + ": does not start with \"\\x03ABK\", so not an Arena ABK book"};
  if (bytes.size() < kAbkHeaderSize)
    return Error{name + ": " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                 std::to_string(kAbkHeaderSize) + "-byte ABK header (truncated?)"};
  if ((bytes.size() - kAbkHeaderSize) % kAbkEntrySize != 0)
    return Error{name + ": size " + std::to_string(bytes.size()) +
                 " bytes leaves a partial entry at byte offset " +
                 std::to_string(bytes.size() - (bytes.size() - kAbkHeaderSize) % kAbkEntrySize) +
                 " (entries are 28 bytes after the 25200-byte header; truncated?)"};
  return AbkWalk(bytes, name).run();
}

}  // namespace bookforge::book
