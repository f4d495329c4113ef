// `build --rules polyglot` against `polyglot make-book` on real games: for inputs where no move
// count reaches 16384 (Polyglot halves a position's counts then, in input order), every key
// must get exactly the same set of (move, weight) entries, with Polyglot's options mapped onto
// bookforge's flags. (Entries of equal weight may come in another order: Polyglot sorts with
// qsort, bookforge by move.) Skipped when polyglot or the shared data is absent.
#include "e2e/book_fixtures.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

constexpr const char* kPolyglot = "/usr/games/polyglot";

struct Case {
  std::vector<std::string> polyglot;   // make-book options
  std::vector<std::string> bookforge;  // the same for build --rules polyglot
};

void compare(const std::filesystem::path& pgn, const std::vector<Case>& cases) {
  TempDir tmp;
  for (const Case& c : cases) {
    std::vector<std::string> pg = {kPolyglot,    "make-book", "-pgn",
                                   pgn.string(), "-bin",      (tmp / "pg.bin").string()};
    pg.insert(pg.end(), c.polyglot.begin(), c.polyglot.end());
    CommandResult made = run_program(pg);
    // Polyglot exits with 0 even when it gives up on an illegal move: check that it finished.
    ASSERT_NE(made.out.find("all done!"), std::string::npos) << made.out << made.err;
    std::vector<std::string> bf = {"build",   "-q",      pgn.string(), "-o", (tmp / "bf.bin").string(),
                                   "--rules", "polyglot"};
    bf.insert(bf.end(), c.bookforge.begin(), c.bookforge.end());
    CommandResult built = run_bookforge(bf);
    ASSERT_EQ(built.exit_code, 0) << built.err;

    BookMap expected = book_map(read_raw_book(tmp / "pg.bin"));
    BookMap actual = book_map(read_raw_book(tmp / "bf.bin"));
    std::string options;
    for (const std::string& o : c.polyglot) options += o + " ";
    ASSERT_FALSE(expected.empty()) << options;
    EXPECT_EQ(actual.size(), expected.size()) << pgn.filename() << " " << options;
    size_t differing = 0;
    for (const auto& [key, moves] : expected) {
      auto it = actual.find(key);
      if (it == actual.end() || it->second != moves) ++differing;
    }
    EXPECT_EQ(differing, 0u) << pgn.filename() << " " << options;
  }
}

TEST(BookPolyglot, SameEntriesAsMakeBookOnTwic) {
  if (!std::filesystem::exists(kPolyglot)) GTEST_SKIP() << "polyglot is not installed";
  BOOKFORGE_SHARED_OR_SKIP(pgn, "games/twic0920.pgn");
  compare(pgn, {
                   {{}, {}},
                   {{"-max-ply", "20"}, {"--max-ply", "20"}},
                   {{"-min-game", "1", "-max-ply", "12"}, {"--min-move-games", "1", "--max-ply", "12"}},
                   {{"-min-score", "45"}, {"--min-score", "45"}},
                   {{"-only-white", "-max-ply", "30"}, {"--side", "white", "--max-ply", "30"}},
                   {{"-only-black"}, {"--side", "black"}},
                   {{"-uniform", "-min-game", "2"}, {"--weight", "uniform", "--min-move-games", "2"}},
               });
}

TEST(BookPolyglot, SameEntriesAsMakeBookOnLichess) {
  if (!std::filesystem::exists(kPolyglot)) GTEST_SKIP() << "polyglot is not installed";
  BOOKFORGE_SHARED_OR_SKIP(may2016, "games/lichess-org-database_2016-05.pgn");
  BOOKFORGE_SHARED_OR_SKIP(may2017, "games/lichess-org-database_2017-05.pgn");
  compare(may2016,
          {{{"-max-ply", "30"}, {"--max-ply", "30"}},
           {{"-min-score", "60", "-min-game", "2"}, {"--min-score", "60", "--min-move-games", "2"}}});
  compare(may2017, {{{}, {}}});
}

TEST(BookPolyglot, SameEntriesAsMakeBookWhenGamesAreRepeated) {
  // Polyglot counts every copy of a game, so --rules polyglot does too, although bookforge's
  // own default counts a game found again once (counts/duplicate_filter.h).
  if (!std::filesystem::exists(kPolyglot)) GTEST_SKIP() << "polyglot is not installed";
  const std::string twic = read_file(source_dir() / "data-samples/twic0920-2000.pgn");
  size_t first_700 = 0;
  for (int game = 0; game < 700; ++game) first_700 = twic.find("\n[Event ", first_700 + 1);
  ASSERT_NE(first_700, std::string::npos);
  TempDir dir;
  write_file(dir / "repeated.pgn", twic + "\n" + twic.substr(0, first_700 + 1));
  compare(dir / "repeated.pgn",
          {
              {{}, {}},
              {{"-min-game", "1", "-max-ply", "16"}, {"--min-move-games", "1", "--max-ply", "16"}},
          });
}

}  // namespace
}  // namespace bookforge::test
