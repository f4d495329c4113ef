// `bookforge db explore` and the store's rows against an independent count: the test reads the
// sample PGN with its own small reader, replays the games with the chess core, counts every
// (position, move) itself and compares with what `db add` stored and `db explore` prints.
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "chess/board.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "e2e/book_fixtures.h"
#include "e2e/db_helpers.h"

namespace bookforge::test {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxPly = 60;  // db add's default

struct Counts {
  uint64_t white = 0, draws = 0, black = 0, games = 0, rating_sum = 0, rated = 0;
  uint64_t opponent_rating_sum = 0, opponents_rated = 0;
  int first_ply = 1 << 30;
};

struct IndependentCount {
  std::map<std::pair<uint64_t, uint16_t>, Counts> rows;
  uint64_t games = 0;
  std::vector<std::string> sample_fens;  // positions met along the way, to explore
};

void count_game(const std::map<std::string, std::string>& tags, const std::string& movetext,
                IndependentCount& out, std::mt19937& rng) {
  const std::string result = tags.count("Result") ? tags.at("Result") : "*";
  auto elo = [&](const char* tag) -> uint64_t {
    auto it = tags.find(tag);
    if (it == tags.end()) return 0;
    try {
      return std::stoul(it->second);
    } catch (...) {
      return 0;
    }
  };
  const uint64_t elos[2] = {elo("WhiteElo"), elo("BlackElo")};
  chess::Board board;
  std::set<std::pair<uint64_t, uint16_t>> seen;  // a game counts once per (position, move)
  const int sample_ply = int(rng() % 30);
  int ply = 0;
  for (const std::string& san : movetext_tokens(movetext)) {
    if (ply >= kMaxPly || is_result_token(san)) break;
    chess::SanResult r = chess::san_to_move(board, san);
    ASSERT_TRUE(r.ok()) << "move '" << san << "' of game " << out.games + 1;
    if (ply == sample_ply && out.games % 50 == 0) out.sample_fens.push_back(board.fen());
    const std::pair<uint64_t, uint16_t> k{board.key(), chess::move_to_polyglot(r.move)};
    if (seen.insert(k).second) {
      Counts& c = out.rows[k];
      ++c.games;
      if (result == "1-0")
        ++c.white;
      else if (result == "1/2-1/2")
        ++c.draws;
      else if (result == "0-1")
        ++c.black;
      const uint64_t mover_elo = elos[ply % 2];
      if (mover_elo > 0) c.rating_sum += mover_elo, ++c.rated;
      const uint64_t opponent_elo = elos[1 - ply % 2];
      if (opponent_elo > 0) c.opponent_rating_sum += opponent_elo, ++c.opponents_rated;
      c.first_ply = std::min(c.first_ply, ply);
    }
    chess::UndoInfo undo;
    board.make_move(r.move, undo);
    ++ply;
  }
  ++out.games;
}

IndependentCount count_file(const fs::path& path) {
  IndependentCount out;
  std::mt19937 rng(7);
  std::ifstream in(path);
  std::map<std::string, std::string> tags;
  std::string movetext, line;
  const std::regex tag_line(R"re(^\s*\[(\w+)\s+"(.*)"\]\s*$)re");
  auto flush = [&] {
    if (!tags.empty() || !movetext.empty()) count_game(tags, movetext, out, rng);
    tags.clear();
    movetext.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (std::regex_match(line, m, tag_line)) {
      if (!movetext.empty()) flush();
      tags[m[1]] = m[2];
    } else {
      movetext += line + "\n";
    }
  }
  flush();
  return out;
}

struct ExploredRow {
  std::string uci;
  uint64_t games = 0;
  double white = 0, draws = 0, black = 0, score = 0;
  std::optional<double> avg_rating;
};

std::vector<ExploredRow> parse_explore_json(const std::string& json) {
  std::vector<ExploredRow> rows;
  const std::regex move(
      R"re(\{"uci":"(\w+)","san":"[^"]+","games":(\d+),"white":([\d.]+),"draws":([\d.]+),"black":([\d.]+),"share":[\d.]+,"avg_rating":([\d.]+|null),[^{}]*"score":([\d.]+))re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), move); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    ExploredRow r;
    r.uci = m[1];
    r.games = std::stoull(m[2]);
    r.white = std::stod(m[3]);
    r.draws = std::stod(m[4]);
    r.black = std::stod(m[5]);
    if (m[6] != "null") r.avg_rating = std::stod(m[6]);
    r.score = std::stod(m[7]);
    rows.push_back(r);
  }
  return rows;
}

class DbExplore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    db_ = dir_->path() / "t.sqlite";
    CommandResult r = run_bookforge({"db", "add", sample("twic0920-2000.pgn").string(),
                                     sample("lichess-2016-05-1000.pgn").string(), "--db", db_.string(),
                                     "--progress", "never"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    counts_ = new IndependentCount(count_file(sample("twic0920-2000.pgn")));
    IndependentCount lichess = count_file(sample("lichess-2016-05-1000.pgn"));
    for (auto& [k, c] : lichess.rows) {
      Counts& t = counts_->rows[k];
      t.white += c.white, t.draws += c.draws, t.black += c.black, t.games += c.games;
      t.rating_sum += c.rating_sum, t.rated += c.rated, t.first_ply = std::min(t.first_ply, c.first_ply);
      t.opponent_rating_sum += c.opponent_rating_sum, t.opponents_rated += c.opponents_rated;
    }
    counts_->games += lichess.games;
    counts_->sample_fens.insert(counts_->sample_fens.end(), lichess.sample_fens.begin(),
                                lichess.sample_fens.end());
  }
  static void TearDownTestSuite() {
    delete counts_;
    delete dir_;
  }

  // Explores the position and compares every move with the independent count.
  void check_position(const chess::Board& board, const std::vector<std::string>& args) {
    std::vector<std::string> all{"db", "explore", "--db", db_.string(), "--json"};
    all.insert(all.end(), args.begin(), args.end());
    CommandResult r = run_bookforge(all);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(board.key()));
    EXPECT_NE(r.out.find(std::string("\"key\":\"") + key + "\""), std::string::npos) << r.out;
    std::vector<ExploredRow> rows = parse_explore_json(r.out);

    std::map<std::string, Counts> expected;
    for (auto it = counts_->rows.lower_bound({board.key(), 0});
         it != counts_->rows.end() && it->first.first == board.key(); ++it)
      expected[chess::move_to_uci(chess::polyglot_to_move(board, it->first.second))] = it->second;
    ASSERT_EQ(rows.size(), expected.size()) << board.fen() << "\n" << r.out;
    for (size_t i = 0; i < rows.size(); ++i) {
      const ExploredRow& row = rows[i];
      if (i > 0) {
        EXPECT_GE(rows[i - 1].games, row.games) << "not sorted by games: " << board.fen();
      }
      ASSERT_TRUE(expected.count(row.uci)) << row.uci << " at " << board.fen();
      const Counts& c = expected[row.uci];
      EXPECT_EQ(row.games, c.games) << row.uci << " at " << board.fen();
      const double decided = double(c.white + c.draws + c.black);
      if (decided > 0) {
        EXPECT_NEAR(row.white, 100.0 * c.white / decided, 0.006);
        EXPECT_NEAR(row.draws, 100.0 * c.draws / decided, 0.006);
        EXPECT_NEAR(row.black, 100.0 * c.black / decided, 0.006);
        const double wins = board.side_to_move() == chess::kWhite ? c.white : c.black;
        EXPECT_NEAR(row.score, 100.0 * (wins + 0.5 * c.draws) / decided, 0.006);
      }
      ASSERT_EQ(row.avg_rating.has_value(), c.rated > 0);
      if (c.rated > 0) {
        EXPECT_NEAR(*row.avg_rating, double(c.rating_sum) / double(c.rated), 0.051);
      }
    }
  }

  static TempDir* dir_;
  static fs::path db_;
  static IndependentCount* counts_;
};

TempDir* DbExplore::dir_ = nullptr;
fs::path DbExplore::db_;
IndependentCount* DbExplore::counts_ = nullptr;

TEST_F(DbExplore, EveryStoredRowEqualsTheIndependentCount) {
  EXPECT_EQ(sql_rows(db_, "SELECT sum(games) FROM sources"), std::to_string(counts_->games) + "\n");
  std::string expected;
  // The store's order: by key as a signed integer (store.h), then move.
  std::map<std::pair<int64_t, uint16_t>, const Counts*> ordered;
  for (const auto& [k, c] : counts_->rows) ordered[{int64_t(k.first), k.second}] = &c;
  for (const auto& [k, c] : ordered)
    expected += std::to_string(k.first) + "|" + std::to_string(k.second) + "|" + std::to_string(c->white) +
                "|" + std::to_string(c->draws) + "|" + std::to_string(c->black) + "|" +
                std::to_string(c->games) + "|" + std::to_string(c->rating_sum) + "|" +
                std::to_string(c->opponent_rating_sum) + "|" + std::to_string(c->rated) + "|" +
                std::to_string(c->opponents_rated) + "|" + std::to_string(c->first_ply) + "\n";
  const std::string stored =
      sql_rows(db_, std::string("SELECT ") + kTreeCounts + " FROM tree ORDER BY key, move");
  EXPECT_EQ(std::count(stored.begin(), stored.end(), '\n'), std::ptrdiff_t(counts_->rows.size()));
  EXPECT_TRUE(stored == expected) << "the store differs from the independent count";
}

TEST_F(DbExplore, ExploreMatchesTheIndependentCountOnSamplePositions) {
  for (const char* moves : {"", "e4", "d4", "e4 c5", "e4 e5 Nf3", "d4 Nf6 c4", "e4 c5 Nf3 d6 d4 cxd4 Nxd4"}) {
    chess::Board board;
    for (std::istringstream in(moves); !in.eof();) {
      std::string san;
      if (!(in >> san)) break;
      chess::UndoInfo undo;
      board.make_move(chess::san_to_move(board, san).move, undo);
    }
    SCOPED_TRACE(moves);
    check_position(board, {"--moves", moves});
  }
  ASSERT_GE(counts_->sample_fens.size(), 40u);
  for (const std::string& fen : counts_->sample_fens) {
    SCOPED_TRACE(fen);
    check_position(*chess::Board::from_fen(fen), {"--fen", fen});
  }
}

TEST_F(DbExplore, TextOutputNamesTheOpeningAndAnUnknownPositionHasNoMoves) {
  CommandResult r = run_bookforge({"db", "explore", "--db", db_.string(), "--moves", "e4 c5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Sicilian"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Nf3"), std::string::npos) << r.out;
  CommandResult none = run_bookforge(
      {"db", "explore", "--db", db_.string(), "--json", "--fen", "8/8/8/8/8/8/k7/7K w - - 0 1"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("\"moves\":[]"), std::string::npos) << none.out;
}

TEST_F(DbExplore, BadPositionsAndMissingStoresAreErrors) {
  EXPECT_EQ(run_bookforge({"db", "explore", "--db", db_.string(), "--moves", "e4 e4"}).exit_code, 2);
  EXPECT_EQ(run_bookforge({"db", "explore", "--db", db_.string(), "--fen", "not a fen"}).exit_code, 2);
  CommandResult missing = run_bookforge({"db", "explore", "--db", (dir_->path() / "none.sqlite").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no such store"), std::string::npos) << missing.err;
}

TEST(DbExploreTranspositions, TheLineWalkedAndOtherMoveOrdersAreCountedApart) {
  // Three games reach the same position after 1.Nf3 Nf6 2.c4 (= 1.c4 Nf6 2.Nf3) and play on:
  // one by the first order, two by the second.
  TempDir dir;
  write_file(dir.path() / "g.pgn",
             "[Result \"1-0\"]\n\n1. Nf3 Nf6 2. c4 e6 1-0\n\n"
             "[Result \"0-1\"]\n\n1. c4 Nf6 2. Nf3 e6 0-1\n\n"
             "[Result \"1/2-1/2\"]\n\n1. c4 Nf6 2. Nf3 g6 1/2-1/2\n");
  const std::string db = (dir.path() / "t.sqlite").string();
  ASSERT_EQ(run_bookforge({"db", "add", (dir.path() / "g.pgn").string(), "--db", db, "-q"}).exit_code, 0);
  CommandResult first = run_bookforge({"db", "explore", "--db", db, "--moves", "Nf3 Nf6 c4", "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("\"games\":3,\"by_line\":1,\"by_other_orders\":2,\"mostly_transposed\":true"),
            std::string::npos)
      << first.out;
  CommandResult second = run_bookforge({"db", "explore", "--db", db, "--moves", "c4 Nf6 Nf3", "--json"});
  EXPECT_NE(second.out.find("\"games\":3,\"by_line\":2,\"by_other_orders\":1,\"mostly_transposed\":false"),
            std::string::npos)
      << second.out;
  CommandResult text = run_bookforge({"db", "explore", "--db", db, "--moves", "Nf3 Nf6 c4"});
  EXPECT_NE(
      text.out.find("reached   1 by this line's last move, 2 by other move orders (mostly a transposition)"),
      std::string::npos)
      << text.out;
  // Without --moves there is no line: no such fields.
  CommandResult start = run_bookforge({"db", "explore", "--db", db, "--json"});
  EXPECT_EQ(start.out.find("by_line"), std::string::npos) << start.out;
}

TEST_F(DbExplore, StatsCountPositionsMovesGamesAndSources) {
  std::set<uint64_t> keys;
  for (const auto& [k, c] : counts_->rows) keys.insert(k.first);
  CommandResult r = run_bookforge({"db", "stats", "--db", db_.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"positions\":" + std::to_string(keys.size()) + ","), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"moves\":" + std::to_string(counts_->rows.size()) + ","), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"games\":" + std::to_string(counts_->games) + ","), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("twic0920-2000.pgn"), std::string::npos);
  EXPECT_NE(r.out.find("lichess-2016-05-1000.pgn"), std::string::npos);
  CommandResult text = run_bookforge({"db", "stats", "--db", db_.string()});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("positions " + std::to_string(keys.size())), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("sources   2"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace bookforge::test
