// Finds where games begin and end in a stream of PGN bytes, without tokenizing moves. It is
// the single authority on game boundaries: the chunker cuts blocks only where it says a game
// begins, and the lexer sees one game at a time, so results cannot depend on block sizes.
//
// A game begins
//   - at a line whose first non-blank bytes are '[' and a tag name, unless the game open at
//     that point has not seen any movetext yet and does not have that tag yet (then the line
//     adds tags to it: blank lines may separate tags, and games with tags only still come
//     apart). This holds even inside an open comment or variation: an unterminated comment
//     spoils one game, not the rest of the file;
//   - at a letter, digit, '*', '-' or '½' outside any game (games without tags, e.g. one game
//     per line).
// A game ends where the next one begins, at the end of the input, or right after a result
// token ("1-0", "0-1", "1/2-1/2", "*", ...) at variation depth 0 outside comments.
// Between games, blanks, comments, ';' and '%' lines and stray bytes are ignored.
//
// The scanner is incremental: it may stop in the middle of the data when it needs to see more
// bytes (a whole tag line, the rest of a token) and resumes there when called again. Every
// decision looks at a bounded window of bytes, so it comes out the same however the stream
// was cut into reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace bookforge::pgn {

// A tag the splitter scanned, as offsets from its game's first byte. Handing these on spares
// the lexer a second scan of the tag section, which costs as much as all the moves it reads
// when books stop at a few dozen plies.
struct TagSpan {
  uint32_t name_begin = 0;
  uint32_t name_size = 0;
  uint32_t value_begin = 0;  // the raw value, escapes untouched
  uint32_t value_size = 0;
};

struct GameSpan {
  size_t begin = 0;         // offset of the game's first byte in its buffer
  size_t end = 0;           // one past its last byte
  size_t result_begin = 0;  // the result token that ended the movetext ...
  size_t result_size = 0;   // ... 0 when the game ended otherwise (next game, end of input)
  uint64_t line = 1;        // line of `begin` in its input, 1-based
  bool oversized = false;   // longer than the chunker's limit; its bytes were dropped
  // With tags_known, the game's tags are [first_tag, first_tag + tag_count) of the TagSpans
  // handed out with it, and its movetext starts at movetext_begin: exactly what the lexer's own
  // scan of the tag section would find. Unusual tag sections (a BOM after a tag, a tag line
  // longer than the look-ahead) are left to the lexer.
  bool tags_known = false;
  uint32_t tag_count = 0;
  size_t first_tag = 0;
  size_t movetext_begin = 0;
};

class GameSplitter {
 public:
  // A tag line, or the blanks that start a line, longer than this is taken as movetext.
  static constexpr size_t kMaxLineLookahead = size_t(1) << 20;

  // Scans data[0, size): every byte received since the last rebase, of which the first
  // position() were already scanned. Appends each game that ended to `spans`, and its tags to
  // `tags` when given (else games come without known tags). `final` means no bytes will
  // follow: the open game is closed at `size`.
  void scan(const char* data, size_t size, bool final, std::vector<GameSpan>& spans,
            std::vector<TagSpan>* tags = nullptr);

  // Bytes before this offset belong to finished games or lie between games.
  size_t settled() const { return in_game_ ? game_begin_ : pos_; }
  // Where the scan stopped.
  size_t position() const { return pos_; }
  // Bytes of the open game scanned so far (0 when no game is open).
  size_t open_game_bytes() const { return in_game_ ? pos_ - game_begin_ : 0; }

  // The buffer dropped its first `offset` bytes (offset <= settled()).
  void rebase(size_t offset);
  // The open game got too long: it will end as an oversized span. The buffer drops its first
  // `offset` bytes (offset <= position()), which may cut into the open game.
  void drop_open_game_prefix(size_t offset);

 private:
  enum class Mode : uint8_t { kBetween, kTags, kMovetext, kComment, kRestOfLine, kStrayBrackets };
  // Each returns false when it needs more bytes to decide (nothing changed then).
  bool at_line_start(const unsigned char* d, size_t size, bool final, std::vector<GameSpan>& spans);
  bool at_result_trigger(const unsigned char* d, size_t size, bool final, std::vector<GameSpan>& spans);
  // Reads the line at pos_ when it is `[Name "value"]` and a line break, the shape of nearly
  // every tag line, recording the tag as the general path would. Returns the line break, or
  // nullptr (nothing recorded) for any other shape.
  const char* plain_tag_line(const char* text, const char* end);
  // Whether the first name of the line being read, tag_names_[known], is one of the open game's
  // earlier names, tag_names_[0, known).
  bool repeats_earlier_name(size_t known);
  void forget_indexed_names();  // tag_names_ now starts a new game
  // Drops the names a tag line added before it needed more bytes; returns false.
  bool retry_line(size_t known_tags);
  // Opens a game at `at`. tag_names_ is left to the caller, who keeps only the new game's there.
  void begin_game(size_t at);
  void end_game(size_t at, size_t result_begin, size_t result_size, std::vector<GameSpan>& spans);
  void line_break(unsigned char c);
  // The open game leaves its tag section: its movetext starts at pos_.
  void enter_movetext(const unsigned char* d);

  Mode mode_ = Mode::kBetween;
  Mode resume_ = Mode::kBetween;  // where a comment or rest-of-line returns to
  bool line_start_ = true;
  bool in_game_ = false;
  bool oversized_ = false;
  int depth_ = 0;  // variation depth in the open game
  size_t pos_ = 0;
  size_t retry_size_ = 0;  // after a line start needed more bytes: wait for this many
  size_t game_begin_ = 0;
  uint64_t line_ = 1;  // line of pos_
  uint64_t game_line_ = 1;
  std::vector<uint64_t> tag_names_;  // hashes of the open game's tag names
  // A linear search suits the usual dozen tags; past this many names a hash set of them keeps
  // a game with hundreds of thousands of tags linear in its size instead of quadratic.
  static constexpr size_t kLinearNameSearch = 64;
  std::unordered_set<uint64_t> name_index_;  // tag_names_[0, indexed_names_)
  size_t indexed_names_ = 0;
  // What the lexer will be told about the open game's tag section.
  static constexpr size_t kNoMovetextYet = ~size_t(0);
  std::vector<TagSpan> open_tags_;
  std::vector<TagSpan>* tags_out_ = nullptr;  // during scan()
  size_t movetext_begin_ = kNoMovetextYet;    // offset in the buffer
  bool tags_known_ = true;
  // The tags of the line at_line_start is reading, as offsets in the buffer.
  struct LineTag {
    size_t name_begin, name_size, value_begin, value_size;
  };
  std::vector<LineTag> line_tags_;
};

}  // namespace bookforge::pgn
