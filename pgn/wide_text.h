// Text in UTF-16 or UTF-32, which the reader cannot take: PGN is read as bytes (UTF-8, ASCII or
// Latin-1), and wide text read that way is one long run of NUL-separated letters that looks
// like a single empty game. Windows tools save "Unicode" text as UTF-16, so such files do turn
// up; the source refuses them by their first decompressed bytes (pgn/source.h).
//
// Recognised by a byte order mark, or without one by the NULs of ASCII text:
//
//   UTF-16LE  'e' '4'  ->  65 00 34 00         UTF-32LE  'e'  ->  65 00 00 00
//   UTF-16BE  'e' '4'  ->  00 65 00 34         UTF-32BE  'e'  ->  00 00 00 65
//
// PGN is mostly ASCII (tags, moves, results) whatever its players' names, so in wide text most
// code units hold an ASCII character and zeros. A byte stream with stray NULs, or binary data,
// has far fewer units of that shape.
#pragma once

#include <cstdint>
#include <string_view>

namespace bookforge::pgn {

enum class WideText : uint8_t { kNone, kUtf16Le, kUtf16Be, kUtf32Le, kUtf32Be };

// How many leading bytes detect_wide_text looks at (fewer at the end of a short input).
inline constexpr size_t kWideTextProbe = 4096;

// kNone for byte text (UTF-8 with or without its BOM, ASCII, Latin-1) and anything else that is
// not UTF-16 or UTF-32.
WideText detect_wide_text(std::string_view head);

// "UTF-16 (little-endian)" and so on.
std::string_view wide_text_name(WideText encoding);
// The encoding's name for iconv -f: "UTF-16LE" and so on.
std::string_view wide_text_iconv_name(WideText encoding);

}  // namespace bookforge::pgn
