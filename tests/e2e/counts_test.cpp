// Counting spread over machines (issue 28): `count` writes sets of counts files, `count --merge`
// adds sets up, `build --from-counts` builds the book from them. The book must be byte-identical
// to `build` of the same PGN with the same flags for any split of the inputs into sets (whole
// files, --part i/N of plain and compressed files), any K and sets of different K; sets that
// cannot be added up, and damaged or unfinished sets, are refused.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "counts/counts_file.h"
#include "counts/game_list_file.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

fs::path sample(const std::string& name) { return source_dir() / "data-samples" / name; }
const std::string kTwic = sample("twic0920-2000.pgn").string();
const std::string kLichess = sample("lichess-2016-05-1000.pgn").string();

// bookforge VERB INPUTS -o OUTPUT MORE...
CommandResult run(const std::string& verb, const std::vector<std::string>& inputs, const fs::path& output,
                  const std::vector<std::string>& more) {
  std::vector<std::string> args{verb};
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), {"-o", output.string(), "--progress", "never"});
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

CommandResult count(const std::vector<std::string>& inputs, const fs::path& set,
                    const std::vector<std::string>& more = {}) {
  return run("count", inputs, set, more);
}

CommandResult build(const std::vector<std::string>& inputs, const fs::path& book,
                    const std::vector<std::string>& more = {}) {
  return run("build", inputs, book, more);
}

CommandResult build_from(const std::vector<fs::path>& sets, const fs::path& book,
                         std::vector<std::string> more = {}) {
  std::vector<std::string> args{"build", "-o", book.string(), "--from-counts"};
  for (const fs::path& set : sets) args.push_back(set.string());
  args.insert(args.end(), more.begin(), more.end());
  return run_bookforge(args);
}

// "from N games (D" of a build's summary line: the games kept and the copies dropped.
std::string games_counted(const std::string& out) {
  const size_t from = out.find(" from "), end = out.find(" (");
  return from == std::string::npos || end == std::string::npos ? out : out.substr(from, end - from);
}

// The rule sets the books are compared under: what build takes, and what count then needs to
// count as that build does.
struct Rules {
  std::string name;
  std::vector<std::string> build;
  std::vector<std::string> count;
};
const std::vector<Rules> kRules = {
    {"default", {}, {}},
    {"polyglot", {"--rules", "polyglot"}, {"--max-ply", "1024", "--count-repeats", "--keep-duplicates"}},
    // The preset names the same counting.
    {"polyglot preset", {"--rules", "polyglot"}, {"--rules", "polyglot"}},
    {"rating", {"--weight", "rating", "--min-move-games", "2"}, {"--weight", "rating"}},
    // Counted for a store (slices, opponents' ratings): the book sums the slices back.
    {"store counts", {"--weight", "rating"}, {"--for", "store"}},
};

// The book of `sets` equals the book of `inputs`, under every rule set of kRules; `make_sets`
// counts the sets with the counting flags given.
void expect_same_books(
    const TempDir& dir, const std::vector<std::string>& inputs,
    const std::function<std::vector<fs::path>(const std::vector<std::string>& flags)>& make_sets) {
  for (const Rules& rules : kRules) {
    SCOPED_TRACE(rules.name);
    const fs::path whole = dir / (rules.name + "-whole.bin");
    CommandResult one = build(inputs, whole, rules.build);
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const std::vector<fs::path> sets = make_sets(rules.count);
    const fs::path split = dir / (rules.name + "-split.bin");
    CommandResult from = build_from(sets, split, rules.build);
    ASSERT_EQ(from.exit_code, 0) << from.err;
    EXPECT_EQ(read_file(split), read_file(whole));
    // The summary counts the games as the one-machine build does.
    EXPECT_EQ(games_counted(from.out), games_counted(one.out));
  }
}

// A fresh folder name under `dir` for each set made.
fs::path next_set(const TempDir& dir) {
  static int made = 0;
  return dir / ("set" + std::to_string(made++));
}

TEST(Counts, WholeFilesAsSetsOfAnyKBuildTheOneMachineBook) {
  TempDir dir;
  for (const auto& [k_twic, k_lichess] :
       {std::pair{"1", "1"}, {"4", "4"}, {"64", "64"}, {"1", "64"}, {"8", "2"}}) {
    SCOPED_TRACE(std::string("K ") + k_twic + " and " + k_lichess);
    expect_same_books(dir, {kTwic, kLichess}, [&](const std::vector<std::string>& flags) {
      std::vector<fs::path> sets{next_set(dir), next_set(dir)};
      std::vector<std::string> a = flags, b = flags;
      a.insert(a.end(), {"--partitions", k_twic});
      b.insert(b.end(), {"--partitions", k_lichess});
      EXPECT_EQ(count({kTwic}, sets[0], a).exit_code, 0);
      EXPECT_EQ(count({kLichess}, sets[1], b).exit_code, 0);
      return sets;
    });
  }
}

// The input in three forms: plain, gzip and zstd.
std::vector<std::string> compressed_copies(const TempDir& dir, const std::string& input) {
  const std::string name = fs::path(input).filename().string();
  const fs::path gz = dir / (name + ".gz"), zst = dir / (name + ".zst");
  EXPECT_EQ(run_program({"sh", "-c", "gzip -c '" + input + "' > '" + gz.string() + "'"}).exit_code, 0);
  EXPECT_EQ(run_program({"zstd", "-q", "-f", input, "-o", zst.string()}).exit_code, 0);
  return {input, gz.string(), zst.string()};
}

TEST(Counts, PartsOfPlainAndCompressedInputsCountExactlyTheWhole) {
  TempDir dir;
  for (const std::string& source : {kTwic, kLichess}) {
    // With 3 or more parts a boundary falls inside a game: its game is counted by the part it
    // starts in.
    const std::string text = read_file(source);
    const size_t third = text.size() / 3;
    ASSERT_FALSE(text[third - 1] == '\n' && text[third] == '[');
    for (const std::string& input : compressed_copies(dir, source)) {
      for (int n = 1; n <= 5; ++n) {
        SCOPED_TRACE(input + " in " + std::to_string(n) + " parts");
        const fs::path whole = dir / "whole.bin";
        ASSERT_EQ(build({input}, whole, {"--min-move-games", "1", "--min-games", "1"}).exit_code, 0);
        std::vector<fs::path> sets;
        uint64_t kept = 0;
        for (int i = 0; i < n; ++i) {
          sets.push_back(next_set(dir));
          const std::string k = std::to_string(1 << (i % 4));  // a different K in each part
          CommandResult part =
              count({input}, sets.back(),
                    {"--part", std::to_string(i) + "/" + std::to_string(n), "--partitions", k});
          ASSERT_EQ(part.exit_code, 0) << part.err;
          kept += std::stoull(part.out.substr(part.out.find(" from ") + 6));
        }
        EXPECT_EQ(kept, source == kTwic ? 2000u : 1000u);
        const fs::path split = dir / "split.bin";
        CommandResult from = build_from(sets, split, {"--min-move-games", "1", "--min-games", "1"});
        ASSERT_EQ(from.exit_code, 0) << from.err;
        EXPECT_EQ(read_file(split), read_file(whole));
      }
    }
  }
}

TEST(Counts, PartSplitsBuildTheOneMachineBookUnderEveryRule) {
  TempDir dir;
  expect_same_books(dir, {kTwic, kLichess}, [&](const std::vector<std::string>& flags) {
    std::vector<fs::path> sets;
    for (int i = 0; i < 3; ++i) {
      sets.push_back(next_set(dir));
      std::vector<std::string> more = flags;
      more.insert(more.end(), {"--part", std::to_string(i) + "/3", "--partitions", i == 1 ? "16" : "4"});
      EXPECT_EQ(count({kTwic, kLichess}, sets.back(), more).exit_code, 0);
    }
    return sets;
  });
}

TEST(Counts, MergedSetsBuildTheOneMachineBook) {
  TempDir dir;
  expect_same_books(dir, {kTwic, kLichess}, [&](const std::vector<std::string>& flags) {
    const fs::path a = next_set(dir), b = next_set(dir), c = next_set(dir), merged = next_set(dir);
    std::vector<std::string> fa = flags, fb = flags, fc = flags;
    fa.insert(fa.end(), {"--part", "0/2", "--partitions", "2"});
    fb.insert(fb.end(), {"--part", "1/2", "--partitions", "8"});
    fc.insert(fc.end(), {"--partitions", "1"});
    EXPECT_EQ(count({kTwic}, a, fa).exit_code, 0);
    EXPECT_EQ(count({kTwic}, b, fb).exit_code, 0);
    EXPECT_EQ(count({kLichess}, c, fc).exit_code, 0);
    CommandResult m = run_bookforge(
        {"count", "--merge", a.string(), b.string(), c.string(), "-o", merged.string(), "--partitions", "4"});
    EXPECT_EQ(m.exit_code, 0) << m.err;
    EXPECT_NE(m.out.find("from 3000 games"), std::string::npos) << m.out;
    return std::vector<fs::path>{merged};
  });
}

// The reduce spread over machines: one task per key range, in any order, into one folder, then
// the game list; the set is refused until the game list is written.
TEST(Counts, AMergeRangeByRangeBuildsTheOneMachineBook) {
  TempDir dir;
  expect_same_books(dir, {kTwic, kLichess}, [&](const std::vector<std::string>& flags) {
    const fs::path a = next_set(dir), b = next_set(dir), merged = next_set(dir);
    std::vector<std::string> fa = flags, fb = flags;
    fa.insert(fa.end(), {"--partitions", "4"});
    fb.insert(fb.end(), {"--partitions", "8"});
    EXPECT_EQ(count({kTwic}, a, fa).exit_code, 0);
    EXPECT_EQ(count({kLichess}, b, fb).exit_code, 0);
    auto merge = [&](std::vector<std::string> task) {
      std::vector<std::string> args{"count", "--merge",       a.string(),     b.string(),
                                    "-o",    merged.string(), "--partitions", "4"};
      args.insert(args.end(), task.begin(), task.end());
      return run_bookforge(args);
    };
    for (const char* range : {"2", "0", "3"}) EXPECT_EQ(merge({"--range", range}).exit_code, 0);
    CommandResult early = merge({"--game-list"});
    EXPECT_EQ(early.exit_code, 1);
    EXPECT_NE(early.err.find("range 1 of 4 is not written"), std::string::npos) << early.err;
    EXPECT_NE(build_from({merged}, dir / "early.bin").exit_code, 0);
    EXPECT_EQ(merge({"--range", "1"}).exit_code, 0);
    CommandResult finish = merge({"--game-list"});
    EXPECT_EQ(finish.exit_code, 0) << finish.err;
    return std::vector<fs::path>{merged};
  });
  // A range finer than a set's K cannot be cut from it.
  const fs::path coarse = next_set(dir);
  ASSERT_EQ(count({kTwic}, coarse, {"--partitions", "2"}).exit_code, 0);
  CommandResult r = run_bookforge({"count", "--merge", coarse.string(), "-o", (dir / "fine").string(),
                                   "--partitions", "4", "--range", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("smallest K (2)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "fine"));
}

// The rules spread over machines too: a book built a key range at a time from the same sets,
// the ranges concatenated in order, is the one-machine book.
TEST(Counts, BooksOfEachKeyRangeConcatenateToTheOneMachineBook) {
  TempDir dir;
  for (const Rules& rules : kRules) {
    SCOPED_TRACE(rules.name);
    const fs::path whole = dir / (rules.name + "-whole.bin");
    ASSERT_EQ(build({kTwic, kLichess}, whole, rules.build).exit_code, 0);
    const fs::path a = next_set(dir), b = next_set(dir);
    std::vector<std::string> fa = rules.count, fb = rules.count;
    fa.insert(fa.end(), {"--partitions", "8"});
    fb.insert(fb.end(), {"--partitions", "4"});
    ASSERT_EQ(count({kTwic}, a, fa).exit_code, 0);
    ASSERT_EQ(count({kLichess}, b, fb).exit_code, 0);
    for (const char* k : {"1", "2", "4"}) {
      std::string joined;
      for (int r = 0; r < std::stoi(k); ++r) {
        const fs::path part = dir / (rules.name + "-part.bin");
        std::vector<std::string> more = rules.build;
        more.insert(more.end(), {"--key-range", std::to_string(r) + "/" + k, "--allow-empty"});
        CommandResult made = build_from({a, b}, part, more);
        ASSERT_EQ(made.exit_code, 0) << made.err;
        joined += read_file(part);
      }
      EXPECT_EQ(joined, read_file(whole)) << "K " << k;
    }
  }
  // A range finer than a set's K, a K not a power of two, and rules that need the whole book.
  const fs::path a = next_set(dir);
  ASSERT_EQ(count({kTwic}, a, {"--partitions", "2"}).exit_code, 0);
  struct Refusal {
    std::vector<std::string> flags;
    int code;  // 1 when the sets say no, 2 when the flags do
    std::string message;
  };
  for (const Refusal& refusal :
       std::vector<Refusal>{{{"--key-range", "1/4"}, 1, "at most the sets' smallest K (2)"},
                            {{"--key-range", "1/3"}, 2, "K must be a power of two"},
                            {{"--key-range", "0/2", "--prune-unreachable"}, 2, "need the whole book"},
                            {{"--key-range", "0/2", "--rescore-depth", "2"}, 2, "need the whole book"}}) {
    CommandResult r = build_from({a}, dir / "refused.bin", refusal.flags);
    EXPECT_EQ(r.exit_code, refusal.code) << r.err;
    EXPECT_NE(r.err.find(refusal.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "refused.bin"));
  }
}

// --- refusals ---

TEST(Counts, SetsCountedWithDifferentOptionsAreRefusedNamingTheOption) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a", {"--max-ply", "40"}).exit_code, 0);
  ASSERT_EQ(count({kLichess}, dir / "b").exit_code, 0);
  ASSERT_EQ(count({kLichess}, dir / "c", {"--min-elo", "2000"}).exit_code, 0);
  CommandResult r = build_from({dir / "a", dir / "b"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("max_ply: 40 in " + (dir / "a").string() + ", 60 in " + (dir / "b").string()),
            std::string::npos)
      << r.err;
  r = run_bookforge(
      {"count", "--merge", (dir / "b").string(), (dir / "c").string(), "-o", (dir / "m").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("filters: none in " + (dir / "b").string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m" / "games.fingerprints"));
  // Counts for a store keep what a book's lack (here the ratings first): the two are not added up.
  ASSERT_EQ(count({kTwic}, dir / "s", {"--for", "store"}).exit_code, 0);
  r = build_from({dir / "b", dir / "s"}, dir / "y.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ratings: off in " + (dir / "b").string() + ", on in " + (dir / "s").string()),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "y.bin"));
  // A book's counts keep the players' ratings only when counted for a rating weight.
  r = build_from({dir / "b"}, dir / "z.bin", {"--weight", "rating"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.err.find("counted without the players' ratings, which --weight rating needs: count with --weight "
                 "rating"),
      std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "z.bin"));
}

TEST(Counts, BuildFromCountsRefusesGameFiltersAndOtherCounting) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a").exit_code, 0);
  CommandResult r = build_from({dir / "a"}, dir / "x.bin", {"--min-elo", "2000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the game filters were applied by count"), std::string::npos) << r.err;
  r = build_from({dir / "a"}, dir / "x.bin", {"--max-ply", "20"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--max-ply 20 needs counting again"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.bin"));
}

// A set whose range file `range` was changed by `damage`: refused, naming the file.
void expect_damaged_refused(const std::function<void(std::string& bytes)>& damage, const std::string& why) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a", {"--partitions", "4"}).exit_code, 0);
  const fs::path file = dir / "a" / "range-0002-of-0004.counts";
  std::string bytes = read_file(file);
  damage(bytes);
  write_file(file, bytes);
  CommandResult r = build_from({dir / "a"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(file.string() + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.bin"));
  r = run_bookforge({"count", "--merge", (dir / "a").string(), "-o", (dir / "m").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m" / "games.fingerprints"));
}

TEST(Counts, DamagedFilesAreRefusedNamingTheFile) {
  expect_damaged_refused([](std::string& b) { b[0] = 'X'; }, "no counts magic");
  expect_damaged_refused([](std::string& b) { b[b.size() / 2] ^= 0x40; }, "damaged");
  expect_damaged_refused([](std::string& b) { b[b.size() - 1] ^= 1; }, "checksum");
  expect_damaged_refused([](std::string& b) { b.resize(b.size() - 100); }, "cut short");
  expect_damaged_refused([](std::string& b) { b.resize(10); }, "too short");
}

TEST(Counts, TheSameSetOrInputPartTwiceIsRefusedNamingBoth) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a").exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "b", {"--partitions", "2"}).exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "p", {"--part", "1/4"}).exit_code, 0);
  ASSERT_EQ(count({kTwic}, dir / "q", {"--part", "2/8"}).exit_code, 0);
  CommandResult r = build_from({dir / "a", dir / "a"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find((dir / "a").string() + " and " + (dir / "a").string() + " are the same set"),
            std::string::npos)
      << r.err;
  r = build_from({dir / "a", dir / "b"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find((dir / "a").string() + " and " + (dir / "b").string() + " both count " + kTwic),
            std::string::npos)
      << r.err;
  // Part 1/4 and part 2/8 are the same bytes.
  r = run_bookforge(
      {"count", "--merge", (dir / "p").string(), (dir / "q").string(), "-o", (dir / "m").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("(1/4 and 2/8 of the same content)"), std::string::npos) << r.err;
}

TEST(Counts, ASetWithAMissingRangeIsRefusedNamingTheRange) {
  TempDir dir;
  ASSERT_EQ(count({kTwic}, dir / "a", {"--partitions", "8"}).exit_code, 0);
  fs::remove(dir / "a" / "range-0005-of-0008.counts");
  CommandResult r = build_from({dir / "a"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find((dir / "a").string() + ": range 5 of 8 is missing"), std::string::npos) << r.err;
}

TEST(Counts, GamesInTwoSetsAreRefusedThenSkippedToTheOneMachineBook) {
  TempDir dir;
  // Half of twic's games again, in a file of their own beside lichess's.
  const std::string twic = read_file(kTwic);
  const size_t half = twic.find("\n[Event ", twic.size() / 2) + 1;
  write_file(dir / "more.pgn", read_file(kLichess) + "\n" + twic.substr(half));
  const std::string more = (dir / "more.pgn").string();
  ASSERT_EQ(count({kTwic}, dir / "a", {"--partitions", "4"}).exit_code, 0);
  ASSERT_EQ(count({more}, dir / "b", {"--partitions", "2"}).exit_code, 0);
  CommandResult r = build_from({dir / "a", dir / "b"}, dir / "x.bin");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("are counted in more than one set"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((dir / "a").string() + " and " + (dir / "b").string() + " share "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--skip-games"), std::string::npos) << r.err;

  CommandResult found = run_bookforge({"count", "--find-duplicates", (dir / "a").string(),
                                       (dir / "b").string(), "-o", (dir / "skip").string()});
  ASSERT_EQ(found.exit_code, 0) << found.err;
  const fs::path list = dir / "skip" / "skip-0001.fingerprints";
  ASSERT_TRUE(fs::exists(list)) << found.out;
  EXPECT_FALSE(fs::exists(dir / "skip" / "skip-0000.fingerprints"));
  ASSERT_EQ(count({more}, dir / "b2", {"--partitions", "2", "--skip-games", list.string()}).exit_code, 0);
  CommandResult from = build_from({dir / "a", dir / "b2"}, dir / "split.bin");
  ASSERT_EQ(from.exit_code, 0) << from.err;
  CommandResult one = build({kTwic, more}, dir / "whole.bin");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(read_file(dir / "split.bin"), read_file(dir / "whole.bin"));
  EXPECT_EQ(games_counted(from.out), games_counted(one.out));
}

// --- unfinished sets ---

// Every file left in `set` is complete: a counts file whose entries all read back, or the game
// list; and the set is refused unless all of it is there.
void expect_only_complete_files(const fs::path& set) {
  for (const fs::directory_entry& e : fs::directory_iterator(set)) {
    const std::string path = e.path().string();
    if (e.path().filename() == "games.fingerprints") {
      EXPECT_TRUE(counts::read_game_list(path).ok()) << path;
      continue;
    }
    Result<std::unique_ptr<counts::CountsFileReader>> reader = counts::CountsFileReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    counts::TallyEntry entry;
    while ((*reader)->next(entry)) {
    }
    EXPECT_TRUE((*reader)->status().ok()) << (*reader)->status().error().message;
  }
}

TEST(Counts, ACountStoppedByAFailingWriteLeavesNoCompleteLookingFile) {
  TempDir dir;
  // Files past 600 KB cannot be written: the process gets SIGXFSZ in the middle of a range file.
  const fs::path set = dir / "a";
  CommandResult r =
      run_program({"sh", "-c",
                   "ulimit -f 600; exec '" + std::string(BOOKFORGE_BIN) + "' count '" + kTwic + "' '" +
                       kLichess + "' -o '" + set.string() + "' --partitions 2 --threads 1"});
  EXPECT_NE(r.exit_code, 0);
  expect_only_complete_files(set);
  EXPECT_FALSE(fs::exists(set / "games.fingerprints"));
  CommandResult from = build_from({set}, dir / "x.bin");
  EXPECT_EQ(from.exit_code, 1);
  EXPECT_NE(from.err.find("did not finish"), std::string::npos) << from.err;
}

TEST(Counts, ACountKilledAtAnyMomentLeavesNoCompleteLookingFile) {
  TempDir dir;
  // Killed after 0 ms, 20 ms, ... into the run: whenever that falls, the files left are whole.
  for (int delay_ms : {0, 20, 60, 120, 200}) {
    const fs::path set = dir / ("killed-after-" + std::to_string(delay_ms) + "-ms");
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      execl(BOOKFORGE_BIN, BOOKFORGE_BIN, "count", kTwic.c_str(), kLichess.c_str(), "-o", set.c_str(),
            "--partitions", "16", "--quiet", static_cast<char*>(nullptr));
      _exit(127);
    }
    usleep(useconds_t(delay_ms) * 1000);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (fs::exists(set)) expect_only_complete_files(set);
  }
}

}  // namespace
}  // namespace bookforge::test
