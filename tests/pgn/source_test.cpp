// Sources: compression recognised by magic bytes, every format decompressed by the real
// command-line tools' output, concatenated members and streams, corrupt and truncated input.
#include "pgn/source.h"

#include <gtest/gtest.h>

#include "pgn/recording_visitor.h"
#include "support/test_support.h"

namespace bookforge::pgn {
namespace {

using bookforge::test::run_program;
using bookforge::test::TempDir;
using bookforge::test::write_file;

struct Tool {
  const char* name;
  Compression compression;
  std::vector<std::string> argv;  // compresses the file named last, writing FILE<suffix>
  const char* suffix;
};

const std::vector<Tool> kTools = {
    {"gzip", Compression::kGzip, {"gzip", "-k", "-f"}, ".gz"},
    {"bzip2", Compression::kBzip2, {"bzip2", "-k", "-f"}, ".bz2"},
    {"xz", Compression::kXz, {"xz", "-k", "-f"}, ".xz"},
    {"zstd", Compression::kZstd, {"zstd", "-q", "-f"}, ".zst"},
};

// Compresses `path` with the tool; returns the compressed file's path.
std::string compress(const Tool& tool, const std::string& path) {
  std::vector<std::string> argv = tool.argv;
  argv.push_back(path);
  auto r = run_program(argv);
  EXPECT_EQ(r.exit_code, 0) << tool.name << ": " << r.err;
  return path + tool.suffix;
}

// Reads a whole source in reads of `chunk` bytes.
Result<std::string> read_all(const std::string& path, size_t chunk = 1 << 16) {
  Result<std::unique_ptr<ByteSource>> source = open_source(path);
  if (!source) return source.error();
  std::string text, buffer(chunk, '\0');
  for (;;) {
    Result<size_t> n = (*source)->read(buffer.data(), chunk);
    if (!n) return n.error();
    if (*n == 0) break;
    text.append(buffer.data(), *n);
  }
  return text;
}

// PGN with varying comments, so that it does not compress to almost nothing.
std::string sample_text() {
  std::string text;
  uint64_t x = 12345;
  for (int i = 0; i < 400; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    text += "[Event \"" + std::to_string(x) + "\"]\n\n1. e4 {" + std::to_string(x >> 7) + "} e5 *\n";
    text += test::test_pgn("nags.pgn");
  }
  return text;
}

TEST(PgnSource, RecognisesCompressionByMagicBytes) {
  EXPECT_EQ(detect_compression("\x1f\x8b\x08\x00"), Compression::kGzip);
  EXPECT_EQ(detect_compression("BZh91AY"), Compression::kBzip2);
  EXPECT_EQ(detect_compression(std::string_view("\xfd"
                                                "7zXZ\0\0",
                                                7)),
            Compression::kXz);
  EXPECT_EQ(detect_compression("\x28\xb5\x2f\xfd\x00"), Compression::kZstd);
  EXPECT_EQ(detect_compression("[Event \"x\"]"), Compression::kNone);
  EXPECT_EQ(detect_compression(""), Compression::kNone);
  EXPECT_EQ(detect_compression("\x1f"), Compression::kNone);
  EXPECT_EQ(detect_compression("BZ"), Compression::kNone);
}

TEST(PgnSource, EveryFormatGivesBackTheOriginalBytesWhateverTheName) {
  TempDir dir;
  const std::string text = sample_text();
  for (const Tool& tool : kTools) {
    const std::string plain = (dir / (std::string("games-") + tool.name + ".pgn")).string();
    write_file(plain, text);
    // A misleading name: only the magic bytes count.
    const std::string renamed = (dir / (std::string(tool.name) + "-really.txt")).string();
    std::filesystem::rename(compress(tool, plain), renamed);
    for (size_t chunk : {size_t(1), size_t(3), size_t(4096), size_t(1) << 20}) {
      Result<std::string> back = read_all(renamed, chunk);
      ASSERT_TRUE(back.ok()) << tool.name << ": " << back.error().message;
      EXPECT_EQ(*back, text) << tool.name << " read in pieces of " << chunk;
    }
    Result<std::unique_ptr<ByteSource>> source = open_source(renamed);
    ASSERT_TRUE(source.ok());
    EXPECT_EQ((*source)->total_bytes(), std::filesystem::file_size(renamed));
  }
}

TEST(PgnSource, ConcatenatedMembersAndStreamsAreReadToTheEnd) {
  // gzip members, bzip2 streams, xz streams and zstd frames, each concatenated (split inside a
  // game, so the halves only make sense together).
  TempDir dir;
  const std::string text = sample_text();
  const size_t cut = text.size() / 3 + 7;
  for (const Tool& tool : kTools) {
    std::string joined;
    for (auto [part, name] : {std::pair{text.substr(0, cut), "a"}, std::pair{text.substr(cut), "b"}}) {
      const std::string path = (dir / (std::string(name) + "-" + tool.name)).string();
      write_file(path, part);
      joined += bookforge::test::read_file(compress(tool, path));
    }
    const std::string path = (dir / (std::string("joined") + tool.suffix)).string();
    write_file(path, joined);
    Result<std::string> back = read_all(path);
    ASSERT_TRUE(back.ok()) << tool.name << ": " << back.error().message;
    EXPECT_EQ(back->size(), text.size()) << tool.name;
    EXPECT_EQ(*back, text) << tool.name;
  }
}

TEST(PgnSource, CorruptAndTruncatedInputNamesTheFileAndOffset) {
  TempDir dir;
  const std::string text = sample_text();
  for (const Tool& tool : kTools) {
    const std::string plain = (dir / (std::string("c-") + tool.name)).string();
    write_file(plain, text);
    const std::string packed = bookforge::test::read_file(compress(tool, plain));
    ASSERT_GT(packed.size(), 200u);

    std::string corrupt = packed;
    for (size_t i = packed.size() / 2; i < packed.size() / 2 + 40; ++i) corrupt[i] = char(corrupt[i] ^ 0x5a);
    const std::string corrupt_path = (dir / (std::string("corrupt") + tool.suffix)).string();
    write_file(corrupt_path, corrupt);
    Result<std::string> bad = read_all(corrupt_path);
    ASSERT_FALSE(bad.ok()) << tool.name;
    EXPECT_NE(bad.error().message.find(corrupt_path), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("byte"), std::string::npos) << bad.error().message;

    const std::string truncated_path = (dir / (std::string("truncated") + tool.suffix)).string();
    write_file(truncated_path, packed.substr(0, packed.size() - 30));
    Result<std::string> cut = read_all(truncated_path);
    ASSERT_FALSE(cut.ok()) << tool.name << " accepted a truncated stream";
    EXPECT_NE(cut.error().message.find(truncated_path), std::string::npos) << cut.error().message;
  }
}

TEST(PgnSource, ZstdStartingWithASkippableFrameIsZstd) {
  // pzstd (Debian's zstd package) writes a skippable frame first, carrying the frame sizes.
  EXPECT_EQ(detect_compression("\x50\x2a\x4d\x18\x04\x00"), Compression::kZstd);
  EXPECT_EQ(detect_compression("\x5f\x2a\x4d\x18\x04\x00"), Compression::kZstd);
  EXPECT_EQ(detect_compression("\x60\x2a\x4d\x18\x04\x00"), Compression::kNone);
  TempDir dir;
  const std::string text = sample_text();
  const std::string plain = (dir / "p.pgn").string();
  write_file(plain, text);
  auto r = run_program({"pzstd", "-q", "-f", "-p", "2", plain, "-o", plain + ".zst"});
  if (r.exit_code != 0) GTEST_SKIP() << "pzstd unavailable: " << r.err;
  const std::string packed = bookforge::test::read_file(plain + ".zst");
  ASSERT_EQ(packed.substr(1, 3), "\x2a\x4d\x18") << "pzstd no longer starts with a skippable frame";
  for (size_t chunk : {size_t(1), size_t(4096), size_t(1) << 20}) {
    Result<std::string> back = read_all(plain + ".zst", chunk);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, text) << "read in pieces of " << chunk;
  }
  const std::string truncated = (dir / "t.zst").string();
  write_file(truncated, packed.substr(0, packed.size() - 30));
  EXPECT_FALSE(read_all(truncated).ok()) << "a truncated pzstd file was accepted";
}

TEST(PgnSource, GzipTrailerIsChecked) {
  // The last 8 bytes of a gzip member: CRC-32 of the data, then its length mod 2^32 (ISIZE).
  TempDir dir;
  const std::string plain = (dir / "g.pgn").string();
  write_file(plain, sample_text());
  const std::string packed = bookforge::test::read_file(compress(kTools[0], plain));
  for (size_t byte : {packed.size() - 8, packed.size() - 4, packed.size() - 1}) {
    std::string wrong = packed;
    wrong[byte] = char(wrong[byte] ^ 0x01);
    const std::string path = (dir / ("trailer-" + std::to_string(byte) + ".gz")).string();
    write_file(path, wrong);
    Result<std::string> back = read_all(path);
    ASSERT_FALSE(back.ok()) << "a wrong " << (byte >= packed.size() - 4 ? "length" : "CRC")
                            << " trailer was accepted";
    EXPECT_NE(back.error().message.find(path), std::string::npos) << back.error().message;
  }
  // A second member with a wrong length, after a good one.
  std::string second = packed;
  second[second.size() - 2] = char(second[second.size() - 2] ^ 0x10);
  const std::string joined = (dir / "joined.gz").string();
  write_file(joined, packed + second);
  EXPECT_FALSE(read_all(joined).ok());
}

// `utf8` as iconv writes it in `encoding`.
std::string iconv_to(const std::string& encoding, const std::string& utf8) {
  auto r = run_program({"iconv", "-f", "UTF-8", "-t", encoding}, utf8);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(PgnSource, WideTextIsRefusedNamingTheFileAndTheEncoding) {
  // UTF-16 read as bytes is one long empty game (NUL between every two letters): refused before
  // any game, in both byte orders, with or without a BOM, plain or compressed. UTF-32 too.
  TempDir dir;
  const std::string text = "[White \"M\xc3\xbcller\"]\n\n1. d4 d5 *\n" + sample_text();
  const struct {
    const char* iconv;
    const char* name;
  } kWide[] = {{"UTF-16LE", "UTF-16 (little-endian)"},
               {"UTF-16BE", "UTF-16 (big-endian)"},
               {"UTF-32LE", "UTF-32 (little-endian)"},
               {"UTF-32BE", "UTF-32 (big-endian)"}};
  for (const auto& wide : kWide) {
    for (const std::string bom : {"", "\xef\xbb\xbf"}) {
      const std::string plain =
          (dir / (std::string(wide.iconv) + (bom.empty() ? "" : "-bom") + ".pgn")).string();
      write_file(plain, iconv_to(wide.iconv, bom + text));
      std::vector<std::pair<std::string, std::string>> inputs{{plain, ""}};
      for (const Tool& tool : kTools)
        inputs.emplace_back(compress(tool, plain), std::string(", ") + tool.name + "-compressed");
      for (const auto& [path, compressed] : inputs) {
        Result<std::unique_ptr<ByteSource>> source = open_source(path);
        ASSERT_FALSE(source.ok()) << path << " was read as PGN";
        EXPECT_EQ(source.error().message,
                  path + ": " + wide.name + " text" + compressed +
                      "; bookforge reads UTF-8 (or ASCII/Latin-1) PGN: convert it first, e.g. iconv -f " +
                      wide.iconv + " -t UTF-8");
      }
      // The advice works: converted, the file reads as the text it came from.
      auto converted = run_program({"iconv", "-f", wide.iconv, "-t", "UTF-8", plain});
      ASSERT_EQ(converted.exit_code, 0) << converted.err;
      write_file(plain + ".utf8", converted.out);
      Result<std::string> back = read_all(plain + ".utf8");
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_EQ(*back, bom + text) << wide.iconv;
    }
  }
}

TEST(PgnSource, ByteTextIsReadWhateverItsFirstBytes) {
  // A UTF-8 BOM, Latin-1, stray NULs: read as before, in reads of any size.
  TempDir dir;
  for (const char* name : {"bom.pgn", "latin1.pgn", "nul_bytes.pgn"}) {
    const std::string text = test::test_pgn(name);
    const std::string path = (dir / name).string();
    write_file(path, text);
    for (size_t chunk : {size_t(1), size_t(7), size_t(1) << 16}) {
      Result<std::string> back = read_all(path, chunk);
      ASSERT_TRUE(back.ok()) << name << ": " << back.error().message;
      EXPECT_EQ(*back, text) << name << " read in pieces of " << chunk;
    }
  }
}

TEST(PgnSource, MissingFilesAndDirectories) {
  Result<std::unique_ptr<ByteSource>> missing = open_source("/no/such/file.pgn");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/no/such/file.pgn"), std::string::npos);
  TempDir dir;
  Result<std::unique_ptr<ByteSource>> folder = open_source(dir.path().string());
  ASSERT_FALSE(folder.ok());
}

TEST(PgnSource, EmptyAndTinyFiles) {
  TempDir dir;
  for (std::string text : {"", "\x1f", "B", "*"}) {
    write_file(dir / "t.pgn", text);
    Result<std::string> back = read_all((dir / "t.pgn").string(), 1);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, text);
  }
}

TEST(PgnSource, MemorySourceCountsBytes) {
  auto source = memory_source("abcdef", "mem");
  char buf[4];
  EXPECT_EQ(*source->read(buf, 4), 4u);
  EXPECT_EQ(source->bytes_consumed(), 4u);
  EXPECT_EQ(*source->read(buf, 4), 2u);
  EXPECT_EQ(*source->read(buf, 4), 0u);
  EXPECT_EQ(source->total_bytes(), 6u);
  EXPECT_EQ(source->name(), "mem");
}

}  // namespace
}  // namespace bookforge::pgn
