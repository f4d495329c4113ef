// `bookforge build` end to end: books built from the shipped samples, checked entry by entry
// against counts made here independently (book_fixtures.h); identical bytes for any thread
// count and whether or not the tally spilled; the report; config files; failures that leave no
// output behind.
#include <cmath>
#include <regex>
#include <sstream>

#include "e2e/book_fixtures.h"
#include "support/test_support.h"

namespace bookforge::test {
namespace {

std::filesystem::path twic_sample() { return source_dir() / "data-samples" / "twic0920-2000.pgn"; }
std::filesystem::path lichess_sample() { return source_dir() / "data-samples" / "lichess-2016-05-1000.pgn"; }

CommandResult build(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"build", "--quiet"};
  all.insert(all.end(), args.begin(), args.end());
  return run_bookforge(all);
}

uint64_t json_number(const std::string& json, const std::string& field) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + field + "\": ?([0-9]+)"))) return ~0ull;
  return std::stoull(m[1]);
}

// Every (key, move) the games played, weight = games: the rules switched off.
TEST(BookBuild, PermissiveBookHoldsEveryMoveWithItsGameCount) {
  TempDir tmp;
  const int kMaxPly = 16;
  CommandResult r =
      build({twic_sample().string(), "-o", (tmp / "all.bin").string(), "--max-ply", std::to_string(kMaxPly),
             "--min-games", "0", "--min-move-games", "1", "--no-drop-losing", "--max-score-drop", "1000",
             "--report", (tmp / "report.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  int skipped = 0;
  auto games = replay_pgn_file(twic_sample(), kMaxPly, &skipped);
  std::string report = read_file(tmp / "report.json");
  ASSERT_EQ(json_number(report, "accepted"), games.size()) << "both replays must see the same games";
  EXPECT_EQ(skipped, 0);

  auto counts = count_moves(games, false);
  BookMap book = book_map(read_raw_book(tmp / "all.bin"));
  size_t entries = 0;
  for (const auto& [key, moves] : book) entries += moves.size();
  ASSERT_EQ(entries, counts.size());
  for (const auto& [slot, c] : counts) {
    auto position = book.find(slot.first);
    ASSERT_NE(position, book.end()) << std::hex << slot.first;
    auto move = position->second.find(slot.second);
    ASSERT_NE(move, position->second.end());
    EXPECT_EQ(move->second, c.games) << std::hex << slot.first << " " << slot.second;
  }
}

// The article's default rules, re-implemented here from the independent counts.
TEST(BookBuild, DefaultRulesKeepExactlyWhatTheRulesSay) {
  TempDir tmp;
  const int kMaxPly = 30;
  // Smaller thresholds than the defaults so that the sample exercises every rule.
  CommandResult r = build({twic_sample().string(), "-o", (tmp / "b.bin").string(), "--max-ply",
                           std::to_string(kMaxPly), "--min-games", "5", "--min-move-games", "20",
                           "--min-move-share", "15", "--max-score-drop", "8", "--min-score", "20"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto counts = count_moves(replay_pgn_file(twic_sample(), kMaxPly), false);

  // Group by position; the side to move is the parity of the ply a key is reached at, and the
  // position's totals cover all its moves.
  std::map<uint64_t, std::vector<std::pair<uint16_t, MoveCounts>>> positions;
  for (const auto& [slot, c] : counts) positions[slot.first].push_back({slot.second, c});
  std::map<uint64_t, bool> white_to_move;
  for (const auto& g : replay_pgn_file(twic_sample(), kMaxPly))
    for (size_t i = 0; i < g.plies.size(); ++i) white_to_move[g.plies[i].first] = i % 2 == 0;

  BookMap expected;
  for (const auto& [key, moves] : positions) {
    uint64_t games = 0, half = 0;
    const bool white = white_to_move[key];  // clang 14 cannot capture a structured binding
    auto half_points = [&](const MoveCounts& c) {
      uint64_t wins = white ? c.white : c.black;
      return 2 * wins + c.draws + (c.games - c.white - c.draws - c.black);
    };
    for (const auto& [move, c] : moves) games += c.games, half += half_points(c);
    if (games < 5) continue;
    double average = double(half) / double(2 * games);
    for (const auto& [move, c] : moves) {
      double score = double(half_points(c)) / double(2 * c.games);
      bool popular = c.games >= 20 || double(c.games) * 100.0 >= 15.0 * double(games);
      if (!popular || half_points(c) == 0 || score < 0.20 || (average - score) * 100.0 > 8.0) continue;
      expected[key][move] = uint16_t(c.games);
    }
  }
  BookMap book = book_map(read_raw_book(tmp / "b.bin"));
  EXPECT_FALSE(book.empty());
  EXPECT_EQ(book, expected);
}

TEST(BookBuild, EntriesAreInBookOrder) {
  TempDir tmp;
  ASSERT_EQ(
      build({lichess_sample().string(), "-o", (tmp / "b.bin").string(), "--min-move-games", "3"}).exit_code,
      0);
  auto entries = read_raw_book(tmp / "b.bin");
  ASSERT_GT(entries.size(), 10u);
  for (size_t i = 1; i < entries.size(); ++i) {
    const RawEntry &a = entries[i - 1], &b = entries[i];
    bool ordered = a.key < b.key ||
                   (a.key == b.key && (a.weight > b.weight || (a.weight == b.weight && a.move < b.move)));
    ASSERT_TRUE(ordered) << "entry " << i;
    EXPECT_GT(b.weight, 0);
  }
}

TEST(BookBuild, SameBytesForAnyThreadCountAndWhenSpilling) {
  TempDir tmp;
  std::vector<std::string> common = {twic_sample().string(),
                                     lichess_sample().string(),
                                     "--rules",
                                     "polyglot",
                                     "--max-ply",
                                     "40",
                                     "--min-move-games",
                                     "1"};
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), {"-o", (tmp / name).string(), "--report", (tmp / (name + ".json")).string()});
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = build(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_file(tmp / name);
  };
  std::string one = run("one.bin", {"--threads", "1"});
  std::string three = run("three.bin", {"--threads", "3"});
  std::string spilled =
      run("spilled.bin", {"--threads", "2", "--memory", "64K", "--tmp-dir", tmp.path().string()});
  ASSERT_GT(one.size(), 16000u);
  EXPECT_TRUE(one == three) << "1 thread and 3 threads differ";
  EXPECT_TRUE(one == spilled) << "a spilled build differs";
  EXPECT_GT(json_number(read_file(tmp / "spilled.bin.json"), "spills"), 0u);
  EXPECT_EQ(json_number(read_file(tmp / "one.bin.json"), "spills"), 0u);
  // The spilled runs are gone.
  for (const auto& f : std::filesystem::directory_iterator(tmp.path()))
    EXPECT_EQ(f.path().filename().string().find("bookforge-run"), std::string::npos) << f.path();
}

TEST(BookBuild, ReportCountsGamesStagesAndMemory) {
  TempDir tmp;
  CommandResult r = build({twic_sample().string(), "-o", (tmp / "b.bin").string(), "--min-elo", "2500",
                           "--report", (tmp / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string report = read_file(tmp / "r.json");
  for (const char* field :
       {"\"games\"", "\"accepted\"", "\"rejected\"", "\"stages\"", "\"min_games\"", "\"max_score_drop\"",
        "\"spills\"", "\"seconds\"", "\"peak_rss_bytes\"", "\"written\""})
    EXPECT_NE(report.find(field), std::string::npos) << field;
  EXPECT_GT(json_number(report, "min_elo"), 0u) << "games rejected by --min-elo are counted by filter";
  EXPECT_GT(json_number(report, "peak_rss_bytes"), 1000000u);
  auto entries = read_raw_book(tmp / "b.bin");
  EXPECT_EQ(json_number(report.substr(report.find("\n  \"entries\"")), "entries"), entries.size());
}

TEST(BookBuild, SideAndPruneUnreachable) {
  TempDir tmp;
  ASSERT_EQ(build({twic_sample().string(), "-o", (tmp / "w.bin").string(), "--side", "white",
                   "--min-move-games", "5", "--prune-unreachable"})
                .exit_code,
            0);
  auto games = replay_pgn_file(twic_sample(), 60);
  std::set<uint64_t> white_keys;
  for (const auto& g : games)
    for (size_t i = 0; i < g.plies.size(); i += 2) white_keys.insert(g.plies[i].first);
  BookMap book = book_map(read_raw_book(tmp / "w.bin"));
  ASSERT_GT(book.size(), 20u);
  for (const auto& [key, moves] : book) EXPECT_TRUE(white_keys.count(key)) << std::hex << key;
  // Pruning a one-sided book follows every reply of the other side, so each kept position is
  // in White's repertoire as `dump --side white` walks it.
  CommandResult dump =
      run_bookforge({"dump", (tmp / "w.bin").string(), "--side", "white", "--format", "csv"});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  std::set<std::string> dumped;
  std::istringstream rows(dump.out);
  std::string row;
  std::getline(rows, row);  // header
  while (std::getline(rows, row)) dumped.insert(row.substr(row.find(',') + 1, 16));
  EXPECT_EQ(dumped.size(), book.size());
  // By its own moves alone, a White-only book cannot be walked past White's first move.
  CommandResult info = run_bookforge({"info", (tmp / "w.bin").string(), "--json"});
  EXPECT_EQ(json_number(info.out, "reachable_positions"), 1u) << info.out;

  // ...while a pruned two-sided book is reachable throughout.
  ASSERT_EQ(build({twic_sample().string(), "-o", (tmp / "p.bin").string(), "--prune-unreachable",
                   "--min-move-games", "5", "--report", (tmp / "p.json").string()})
                .exit_code,
            0);
  info = run_bookforge({"info", (tmp / "p.bin").string(), "--json"});
  EXPECT_EQ(json_number(info.out, "reachable_positions"), json_number(info.out, "positions")) << info.out;
  EXPECT_NE(read_file(tmp / "p.json").find("prune_unreachable"), std::string::npos);
}

// A game from a FEN with Black to move: its first position is a Black position (the side comes
// from the game ply, since a key alone does not tell who is to move).
TEST(BookBuild, FenGamesKeepTheirSideToMove) {
  TempDir tmp;
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
  std::string pgn;
  for (int i = 0; i < 3; ++i)
    pgn += "[Event \"f\"]\n[SetUp \"1\"]\n[FEN \"" + fen +
           "\"]\n[Result \"1/2-1/2\"]\n\n3... Nf6 4. Nc3 Bb4 1/2-1/2\n\n";
  write_file(tmp / "fen.pgn", pgn);
  auto key_of = [](const std::string& args) {
    return run_bookforge({"key", "--fen", args}).out.substr(0, 16);
  };
  for (const char* side : {"black", "white"}) {
    ASSERT_EQ(build({(tmp / "fen.pgn").string(), "-o", (tmp / "b.bin").string(), "--side", side,
                     "--min-games", "0", "--min-move-games", "1"})
                  .exit_code,
              0);
    BookMap book = book_map(read_raw_book(tmp / "b.bin"));
    std::set<std::string> keys;
    for (const auto& [key, moves] : book) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
      keys.insert(hex);
    }
    // Black's positions: the FEN and the one after 4. Nc3; White's: the one after 3... Nf6.
    if (std::string(side) == "black") {
      EXPECT_EQ(keys.size(), 2u);
      EXPECT_TRUE(keys.count(key_of(fen)));
    } else {
      EXPECT_EQ(keys.size(), 1u);
      EXPECT_FALSE(keys.count(key_of(fen)));
    }
  }
}

TEST(BookBuild, ConfigFilesFromDataSamples) {
  TempDir tmp;
  for (const char* name : {"broad", "engine-tournament", "white-repertoire"}) {
    std::filesystem::path config = source_dir() / "data-samples" / "rules" / (std::string(name) + ".toml");
    ASSERT_TRUE(std::filesystem::exists(config)) << config;
    CommandResult r =
        build({twic_sample().string(), "-o", (tmp / (std::string(name) + ".bin")).string(), "--config",
               config.string(), "--report", (tmp / (std::string(name) + ".json")).string()});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
  }
  // The repertoire file asks for White's moves only.
  std::string report = read_file(tmp / "white-repertoire.json");
  EXPECT_NE(report.find("side white"), std::string::npos) << report;
  // A flag on the command line wins over the file.
  CommandResult r = build({twic_sample().string(), "-o", (tmp / "x.bin").string(), "--config",
                           (source_dir() / "data-samples" / "rules" / "white-repertoire.toml").string(),
                           "--side", "black", "--report", (tmp / "x.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(tmp / "x.json").find("side black"), std::string::npos);

  write_file(tmp / "bad.toml", "no-such-rule = 3\n");
  r = build(
      {twic_sample().string(), "-o", (tmp / "y.bin").string(), "--config", (tmp / "bad.toml").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-rule"), std::string::npos) << r.err;
}

TEST(BookBuild, FailuresLeaveNoOutput) {
  TempDir tmp;
  CommandResult r = build({(tmp / "missing.pgn").string(), "-o", (tmp / "b.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.pgn"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << "no book, no temporary file";

  // Refused before anything is read, as a path on the command line that cannot be written.
  r = build({twic_sample().string(), "-o", (tmp / "no-such-folder" / "b.bin").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-folder"), std::string::npos) << r.err;

  r = build({twic_sample().string(), "-o", (tmp / "b.bin").string(), "--memory", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  r = build({twic_sample().string(), "-o", (tmp / "b.bin").string(), "--min-score", "120"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

}  // namespace
}  // namespace bookforge::test
