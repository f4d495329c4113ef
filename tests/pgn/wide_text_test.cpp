// UTF-16 and UTF-32 recognised from the first bytes, with and without a BOM, as iconv writes
// them; byte text (UTF-8 with its BOM, Latin-1, stray NULs) and binary data are not.
#include "pgn/wide_text.h"

#include <gtest/gtest.h>

#include "pgn/recording_visitor.h"
#include "support/test_support.h"

namespace bookforge::pgn {
namespace {

using bookforge::test::run_program;

// A game with a Cyrillic and a German name: wide text is not all ASCII.
const std::string kUtf8Game =
    "[Event \"Moscow\"]\n[White \"\xd0\xa2\xd0\xb0\xd0\xbb\xd1\x8c, M.\"]\n[Black \"M\xc3\xbcller\"]\n"
    "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n";

std::string iconv_to(const std::string& encoding, const std::string& utf8) {
  auto r = run_program({"iconv", "-f", "UTF-8", "-t", encoding}, utf8);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

struct Wide {
  const char* iconv;
  WideText encoding;
};
const Wide kWide[] = {{"UTF-16LE", WideText::kUtf16Le},
                      {"UTF-16BE", WideText::kUtf16Be},
                      {"UTF-32LE", WideText::kUtf32Le},
                      {"UTF-32BE", WideText::kUtf32Be}};

TEST(WideText, RecognisedWithAndWithoutBom) {
  for (const Wide& w : kWide) {
    const std::string plain = iconv_to(w.iconv, kUtf8Game);
    // iconv writes U+FEFF as the encoding's BOM.
    const std::string with_bom = iconv_to(w.iconv, "\xef\xbb\xbf" + kUtf8Game);
    EXPECT_EQ(detect_wide_text(plain), w.encoding) << w.iconv;
    EXPECT_EQ(detect_wide_text(with_bom), w.encoding) << w.iconv << " with a BOM";
    EXPECT_EQ(wide_text_iconv_name(w.encoding), w.iconv);
    // The head of a long file: only the probe is looked at.
    std::string many;
    while (many.size() < 3 * kWideTextProbe) many += plain;
    EXPECT_EQ(detect_wide_text(many), w.encoding) << w.iconv;
  }
}

TEST(WideText, BomAloneDecides) {
  EXPECT_EQ(detect_wide_text("\xff\xfe"), WideText::kUtf16Le);
  EXPECT_EQ(detect_wide_text("\xfe\xff"), WideText::kUtf16Be);
  EXPECT_EQ(detect_wide_text(std::string_view("\xff\xfe\0\0", 4)), WideText::kUtf32Le);
  EXPECT_EQ(detect_wide_text(std::string_view("\0\0\xfe\xff", 4)), WideText::kUtf32Be);
  EXPECT_EQ(wide_text_name(WideText::kUtf16Le), "UTF-16 (little-endian)");
  EXPECT_EQ(wide_text_name(WideText::kUtf32Be), "UTF-32 (big-endian)");
}

TEST(WideText, ByteTextAndBinaryAreNot) {
  for (const char* name : {"bom.pgn", "latin1.pgn", "nul_bytes.pgn", "nags.pgn", "crlf.pgn"})
    EXPECT_EQ(detect_wide_text(test::test_pgn(name)), WideText::kNone) << name;
  EXPECT_EQ(detect_wide_text(kUtf8Game), WideText::kNone);
  EXPECT_EQ(detect_wide_text(""), WideText::kNone);
  EXPECT_EQ(detect_wide_text("*"), WideText::kNone);
  EXPECT_EQ(detect_wide_text(std::string(5000, '\0')), WideText::kNone);
  // Too short to tell: "e4" padded with NULs.
  EXPECT_EQ(detect_wide_text(std::string_view("e\0"
                                              "4\0",
                                              4)),
            WideText::kNone);
  // Binary data: this test binary, NULs and ASCII both plentiful. (Random bytes go through the
  // whole reader in not_pgn_test.cpp, and stay "not PGN".)
  const std::string self = bookforge::test::read_file("/proc/self/exe");
  EXPECT_EQ(detect_wide_text(self), WideText::kNone);
}

}  // namespace
}  // namespace bookforge::pgn
