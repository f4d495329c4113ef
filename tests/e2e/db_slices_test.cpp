// The store's slices (speed, rating band, month) against an independent count: the test
// rewrites the samples' dates and time controls so that every kind of slice occurs, counts every
// (position, move) per game slice with its own reader and its own rules (written from the
// documentation of counts/slice.h, not from its code), and compares `db explore` under
// several filters, and `db explore --history` likewise. Then `build --from-db` with slice flags against
// `build` of the PGN with the reader's own filters, which must give the same book byte for byte.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
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

// A game's slice as this test computes it.
struct GameSlice {
  std::string speed;  // "bullet", ..., "unknown"
  int band = -1;      // the band's floor; -1 unrated
  int year = 0;       // 0 unknown
  int month = 0;      // 0 unknown (with a known year: only the year is known)
};

struct Counts {
  uint64_t white = 0, draws = 0, black = 0, games = 0, rating_sum = 0, rated = 0, opponent_sum = 0,
           opponents_rated = 0;
};

// What a filter of the test's own keeps.
struct Filter {
  std::vector<std::string> args;  // the flags, for bookforge
  std::set<std::string> speeds;   // empty: all
  std::set<int> bands;            // empty: all
  int since = 0, until = 0;       // year * 100 + month; 0: open

  bool keeps(const GameSlice& s) const {
    if (!speeds.empty() && !speeds.count(s.speed)) return false;
    if (!bands.empty() && !bands.count(s.band)) return false;
    if (!since && !until) return true;
    if (s.year == 0) return false;
    const int when = s.year * 100 + std::max(s.month, 1);  // a year alone: its January
    return (!since || when >= since) && (!until || when <= until);
  }
};

std::string speed_of(const std::string& tc) {
  if (tc == "-") return "correspondence";
  const size_t plus = tc.find('+');
  if (tc.empty() || tc == "?" || plus == std::string::npos) return "unknown";
  const int seconds = std::stoi(tc.substr(0, plus)) + 40 * std::stoi(tc.substr(plus + 1));
  return seconds < 30     ? "ultrabullet"
         : seconds < 180  ? "bullet"
         : seconds < 480  ? "blitz"
         : seconds < 1500 ? "rapid"
                          : "classical";
}

int band_of(int white, int black) {
  if (white <= 0 || black <= 0) return -1;
  const int floors[] = {0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500, 2800};
  int band = 0;
  for (int f : floors)
    if (white + black >= 2 * f) band = f;
  return band;
}

class DbSlices : public ::testing::Test {
 protected:
  using Key = std::pair<uint64_t, uint16_t>;

  static void SetUpTestSuite() {
    dir_ = new TempDir;
    pgn_ = dir_->path() / "rewritten.pgn";
    counts_ = new std::map<Key, std::vector<std::pair<GameSlice, Counts>>>;
    rewrite_and_count({sample("twic0920-2000.pgn"), sample("lichess-2016-05-1000.pgn")});
    db_ = dir_->path() / "t.sqlite";
    CommandResult r = run_bookforge({"db", "add", pgn_.string(), "--db", db_.string(), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete counts_;
    delete dir_;
  }

  // Writes the samples' games with new dates and some new time controls, counting each game.
  static void rewrite_and_count(const std::vector<fs::path>& inputs) {
    std::string out;
    int index = 0;
    const std::regex tag_line(R"re(^\[(\w+)\s+"(.*)"\]\s*$)re");
    for (const fs::path& input : inputs) {
      std::istringstream in(read_file(input));
      std::map<std::string, std::string> tags;
      std::vector<std::string> tag_order;
      std::string movetext, line;
      auto flush = [&] {
        if (tags.empty()) return;
        const int i = index++;
        GameSlice s;
        std::string date;
        if (i % 10 == 0) {
          date = "????.??.??";
        } else if (i % 10 == 1) {
          date = "2005.??.??", s.year = 2005;
        } else {
          s.year = 2000 + i % 20, s.month = 1 + i % 12;
          char text[16];
          std::snprintf(text, sizeof text, "%04d.%02d.15", s.year, s.month);
          date = text;
        }
        tags["Date"] = date;
        if (tags.count("UTCDate")) tags["UTCDate"] = date;
        if (i % 7 == 3) tags["TimeControl"] = "300+3";
        if (i % 7 == 5) tags["TimeControl"] = "900+10";
        if (i % 7 == 6) tags["TimeControl"] = "-";
        if (i % 9 == 4) tags["WhiteElo"] = "?";
        if (!std::count(tag_order.begin(), tag_order.end(), "Date")) tag_order.push_back("Date");
        if (!std::count(tag_order.begin(), tag_order.end(), "TimeControl") && tags.count("TimeControl"))
          tag_order.push_back("TimeControl");
        s.speed = speed_of(tags.count("TimeControl") ? tags["TimeControl"] : "");
        auto elo = [&](const char* name) {
          try {
            return tags.count(name) ? std::stoi(tags[name]) : 0;
          } catch (...) {
            return 0;
          }
        };
        const int elos[2] = {elo("WhiteElo"), elo("BlackElo")};
        s.band = band_of(elos[0], elos[1]);
        for (const std::string& name : tag_order) out += "[" + name + " \"" + tags[name] + "\"]\n";
        out += "\n" + movetext + "\n";
        count_game(tags.count("Result") ? tags["Result"] : "*", elos, movetext, s);
        tags.clear();
        tag_order.clear();
        movetext.clear();
      };
      while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::smatch m;
        if (std::regex_match(line, m, tag_line)) {
          if (!movetext.empty()) flush();
          if (!tags.count(m[1])) tag_order.push_back(m[1]);
          tags[m[1]] = m[2];
        } else {
          movetext += line + "\n";
        }
      }
      flush();
    }
    write_file(pgn_, out);
  }

  static void count_game(const std::string& result, const int elos[2], const std::string& movetext,
                         const GameSlice& slice) {
    chess::Board board;
    std::set<Key> seen;
    int ply = 0;
    for (const std::string& san : movetext_tokens(movetext)) {
      if (ply >= kMaxPly || is_result_token(san)) break;
      chess::SanResult r = chess::san_to_move(board, san);
      ASSERT_TRUE(r.ok()) << san;
      const Key k{board.key(), chess::move_to_polyglot(r.move)};
      if (seen.insert(k).second) {
        auto& per_slice = (*counts_)[k];
        per_slice.emplace_back(slice, Counts{});
        Counts& c = per_slice.back().second;
        c.games = 1;
        c.white = result == "1-0", c.draws = result == "1/2-1/2", c.black = result == "0-1";
        if (elos[ply % 2] > 0) c.rating_sum = uint64_t(elos[ply % 2]), c.rated = 1;
        if (elos[1 - ply % 2] > 0) c.opponent_sum = uint64_t(elos[1 - ply % 2]), c.opponents_rated = 1;
      }
      chess::UndoInfo undo;
      board.make_move(r.move, undo);
      ++ply;
    }
  }

  // Compares `db explore` of `board` under `filter` with the independent count.
  void check(const chess::Board& board, const Filter& filter) {
    std::vector<std::string> args{"db", "explore", "--db", db_.string(), "--json", "--fen", board.fen()};
    args.insert(args.end(), filter.args.begin(), filter.args.end());
    CommandResult r = run_bookforge(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json x = nlohmann::json::parse(r.out);
    std::map<std::string, const nlohmann::json*> shown;
    for (const nlohmann::json& m : x["moves"]) shown[m["uci"].get<std::string>()] = &m;

    size_t expected_moves = 0;
    uint64_t position_games = 0;
    for (auto it = counts_->lower_bound({board.key(), 0});
         it != counts_->end() && it->first.first == board.key(); ++it) {
      Counts sum;
      int first_year = 0, last_year = 0;
      for (const auto& [slice, c] : it->second) {
        if (!filter.keeps(slice)) continue;
        sum.white += c.white, sum.draws += c.draws, sum.black += c.black, sum.games += c.games;
        sum.rating_sum += c.rating_sum, sum.rated += c.rated;
        sum.opponent_sum += c.opponent_sum, sum.opponents_rated += c.opponents_rated;
        if (slice.year) {
          first_year = first_year ? std::min(first_year, slice.year) : slice.year;
          last_year = std::max(last_year, slice.year);
        }
      }
      if (sum.games == 0) continue;
      ++expected_moves;
      position_games += sum.games;
      const std::string uci = chess::move_to_uci(chess::polyglot_to_move(board, it->first.second));
      SCOPED_TRACE(uci + " at " + board.fen());
      ASSERT_TRUE(shown.count(uci)) << r.out;
      const nlohmann::json& m = *shown[uci];
      EXPECT_EQ(m["games"].get<uint64_t>(), sum.games);
      const double decided = double(sum.white + sum.draws + sum.black);
      if (decided > 0) {
        EXPECT_NEAR(m["white"].get<double>(), 100.0 * double(sum.white) / decided, 0.006);
        EXPECT_NEAR(m["black"].get<double>(), 100.0 * double(sum.black) / decided, 0.006);
      }
      if (sum.rated)
        EXPECT_NEAR(m["avg_rating"].get<double>(), double(sum.rating_sum) / double(sum.rated), 0.051);
      else
        EXPECT_TRUE(m["avg_rating"].is_null());
      if (sum.opponents_rated) {
        const double opponents = double(sum.opponent_sum) / double(sum.opponents_rated);
        EXPECT_NEAR(m["avg_opponent_rating"].get<double>(), opponents, 0.051);
        if (decided > 0) {
          const bool white = board.side_to_move() == chess::kWhite;
          const double wins = double(white ? sum.white : sum.black),
                       losses = double(white ? sum.black : sum.white);
          EXPECT_NEAR(m["performance"].get<double>(), opponents + 400.0 * (wins - losses) / decided, 0.51);
        }
      } else {
        EXPECT_TRUE(m["avg_opponent_rating"].is_null());
      }
      if (first_year) {
        EXPECT_EQ(m["first_year"].get<int>(), first_year);
        EXPECT_EQ(m["last_year"].get<int>(), last_year);
      } else {
        EXPECT_TRUE(m["first_year"].is_null());
      }
    }
    EXPECT_EQ(shown.size(), expected_moves) << r.out;
    EXPECT_EQ(x["games"].get<uint64_t>(), position_games);
  }

  // Compares `db explore --history` of `board` under `filter` with the independent count: the
  // games of every move, month by month, without a gap between the first and last month (or
  // the filter's bounds), and the games whose date has no month apart.
  void check_history(const chess::Board& board, const Filter& filter) {
    std::vector<std::string> args{"db",        "explore", "--db",  db_.string(),
                                  "--history", "--json",  "--fen", board.fen()};
    args.insert(args.end(), filter.args.begin(), filter.args.end());
    CommandResult r = run_bookforge(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json h = nlohmann::json::parse(r.out)["history"];
    std::map<int, Counts> by_month;  // year * 100 + month
    uint64_t undated = 0;
    for (auto it = counts_->lower_bound({board.key(), 0});
         it != counts_->end() && it->first.first == board.key(); ++it)
      for (const auto& [slice, c] : it->second) {
        if (!filter.keeps(slice)) continue;
        if (slice.month == 0) {
          undated += c.games;
          continue;
        }
        Counts& m = by_month[slice.year * 100 + slice.month];
        m.white += c.white, m.draws += c.draws, m.black += c.black, m.games += c.games;
      }
    EXPECT_EQ(h["undated"].get<uint64_t>(), undated);
    int first = filter.since ? filter.since : by_month.empty() ? 0 : by_month.begin()->first;
    const int last = filter.until ? filter.until : by_month.empty() ? 0 : by_month.rbegin()->first;
    std::vector<nlohmann::json> expected;
    for (int when = first; first && last && when <= last; when = when % 100 == 12 ? when + 89 : when + 1) {
      const Counts m = by_month.count(when) ? by_month[when] : Counts{};
      char month[16];
      std::snprintf(month, sizeof month, "%04d-%02d", when / 100, when % 100);
      expected.push_back(
          {{"month", month}, {"white", m.white}, {"draws", m.draws}, {"black", m.black}, {"games", m.games}});
    }
    EXPECT_EQ(h["months"], nlohmann::json(expected));
  }

  static TempDir* dir_;
  static fs::path pgn_, db_;
  static std::map<Key, std::vector<std::pair<GameSlice, Counts>>>* counts_;
};

TempDir* DbSlices::dir_ = nullptr;
fs::path DbSlices::pgn_, DbSlices::db_;
std::map<DbSlices::Key, std::vector<std::pair<GameSlice, Counts>>>* DbSlices::counts_ = nullptr;

std::vector<Filter> filters() {
  Filter speeds{{"--speeds", "bullet,blitz,correspondence"}, {"bullet", "blitz", "correspondence"}, {}, 0, 0};
  Filter bands{{"--ratings", "1600,1800,unrated"}, {}, {1600, 1800, -1}, 0, 0};
  Filter months{{"--since", "2003-04", "--until", "2010-09"}, {}, {}, 200304, 201009};
  Filter june_on{{"--since", "2005-06"}, {}, {}, 200506, 0};  // leaves out the games dated 2005 alone
  Filter all{
      {"--speeds", "bullet,unknown", "--ratings", "2200,2500,1800", "--since", "2005", "--until", "2015-06"},
      {"bullet", "unknown"},
      {2200, 2500, 1800},
      200501,
      201506};
  return {Filter{}, speeds, bands, months, june_on, all};
}

TEST_F(DbSlices, ExploreUnderEveryFilterEqualsTheIndependentCount) {
  std::vector<chess::Board> boards;
  for (const char* line : {"", "e4", "d4", "e4 c5", "e4 e5 Nf3", "d4 Nf6 c4", "e4 c5 Nf3 d6"}) {
    chess::Board b;
    std::istringstream in(line);
    for (std::string san; in >> san;) {
      chess::UndoInfo undo;
      b.make_move(chess::san_to_move(b, san).move, undo);
    }
    boards.push_back(b);
  }
  for (const Filter& f : filters()) {
    std::string name;
    for (const std::string& a : f.args) name += a + " ";
    SCOPED_TRACE("filter: " + name);
    for (const chess::Board& b : boards) check(b, f);
  }
}

TEST_F(DbSlices, HistoryUnderEveryFilterEqualsTheIndependentCount) {
  for (const Filter& f : filters()) {
    std::string name;
    for (const std::string& a : f.args) name += a + " ";
    SCOPED_TRACE("filter: " + name);
    for (const char* line : {"", "e4", "d4 Nf6 c4", "e4 c5 Nf3 d6", "e4 e5 Nf3 Nc6 Bb5 a6"}) {
      chess::Board b;
      std::istringstream in(line);
      for (std::string san; in >> san;) {
        chess::UndoInfo undo;
        b.make_move(chess::san_to_move(b, san).move, undo);
      }
      check_history(b, f);
    }
  }
  // The text names the position and lists the months.
  CommandResult text =
      run_bookforge({"db", "explore", "--db", db_.string(), "--history", "--since", "2003-04"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("games of  since=2003-04"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n2003-04 "), std::string::npos) << text.out;
}

TEST_F(DbSlices, BuildFromASliceOfTheStoreEqualsBuildFromTheFilteredPgn) {
  struct Case {
    std::vector<std::string> slice;  // build --from-db
    std::vector<std::string> pgn;    // the reader's filters on the PGN
  };
  const std::vector<Case> cases = {
      {{"--speeds", "bullet"}, {"--speed", "bullet"}},
      {{"--ratings", "1600,1800,2000,2200,2500,2800"}, {"--exclude-unrated", "--min-avg-elo", "1600"}},
      // A year alone ("2005.??.??") is in both; an unknown date in neither.
      {{"--since", "2003", "--until", "2010"}, {"--date-from", "2003", "--date-to", "2010"}},
      {{"--speeds", "blitz,rapid", "--ratings", "2200,2500,2800", "--since", "2001"},
       {"--speed", "blitz,rapid", "--exclude-unrated", "--min-avg-elo", "2200", "--date-from", "2001"}},
  };
  int n = 0;
  for (const Case& c : cases) {
    const fs::path from_db = dir_->path() / ("db" + std::to_string(n) + ".bin");
    const fs::path from_pgn = dir_->path() / ("pgn" + std::to_string(n++) + ".bin");
    std::vector<std::string> a{"build",          "--from-db",   db_.string(), "-o",
                               from_db.string(), "--min-games", "1",          "-q"};
    a.insert(a.end(), c.slice.begin(), c.slice.end());
    std::vector<std::string> b{"build", pgn_.string(), "-o", from_pgn.string(), "--min-games", "1", "-q"};
    b.insert(b.end(), c.pgn.begin(), c.pgn.end());
    CommandResult ra = run_bookforge(a), rb = run_bookforge(b);
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    const std::string book = read_file(from_db);
    EXPECT_GT(book.size(), 16u * 100) << c.slice[0];
    EXPECT_TRUE(book == read_file(from_pgn)) << "books differ for " << c.slice[0];
  }
  // Slice flags need a store.
  CommandResult without =
      run_bookforge({"build", pgn_.string(), "-o", (dir_->path() / "x.bin").string(), "--speeds", "blitz"});
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_NE(without.err.find("--from-db"), std::string::npos) << without.err;
}

TEST_F(DbSlices, AddingTheSameGamesAgainDoublesEverySlice) {
  const fs::path twice = dir_->path() / "twice.sqlite";
  ASSERT_EQ(run_bookforge({"db", "add", pgn_.string(), "--db", twice.string(), "-q"}).exit_code, 0);
  ASSERT_EQ(run_bookforge(
                {"db", "add", pgn_.string(), "--db", twice.string(), "-q", "--force", "--keep-duplicates"})
                .exit_code,
            0);
  for (const Filter& f : filters()) {
    std::vector<std::string> once_args{"db", "explore", "--db", db_.string(), "--json", "--moves", "e4"};
    std::vector<std::string> twice_args{"db", "explore", "--db", twice.string(), "--json", "--moves", "e4"};
    once_args.insert(once_args.end(), f.args.begin(), f.args.end());
    twice_args.insert(twice_args.end(), f.args.begin(), f.args.end());
    const nlohmann::json once = nlohmann::json::parse(run_bookforge(once_args).out);
    const nlohmann::json doubled = nlohmann::json::parse(run_bookforge(twice_args).out);
    ASSERT_EQ(once["moves"].size(), doubled["moves"].size());
    for (size_t i = 0; i < once["moves"].size(); ++i) {
      EXPECT_EQ(2 * once["moves"][i]["games"].get<uint64_t>(), doubled["moves"][i]["games"].get<uint64_t>());
      EXPECT_EQ(once["moves"][i]["first_year"], doubled["moves"][i]["first_year"]);
      EXPECT_EQ(once["moves"][i]["avg_opponent_rating"], doubled["moves"][i]["avg_opponent_rating"]);
    }
  }
}

TEST_F(DbSlices, BadSliceFlagsAndOldStoresGetClearAnswers) {
  CommandResult bad = run_bookforge({"db", "explore", "--db", db_.string(), "--ratings", "2100"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--ratings: unknown item '2100'"), std::string::npos) << bad.err;
  CommandResult reversed =
      run_bookforge({"db", "explore", "--db", db_.string(), "--since", "2020", "--until", "2019"});
  EXPECT_EQ(reversed.exit_code, 2);
  // A store of schema version 1 (made before the slices) is refused with what to do.
  const fs::path old = dir_->path() / "old.sqlite";
  fs::copy_file(db_, old);
  EXPECT_EQ(sql_rows(old, "UPDATE meta SET value = '1' WHERE name = 'schema_version'"), "");
  CommandResult refused = run_bookforge({"db", "explore", "--db", old.string()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("older bookforge (store schema version 1)"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("db add"), std::string::npos) << refused.err;
  // So is one of version 2 (made before the games' byte offsets), by db add too.
  EXPECT_EQ(sql_rows(old, "UPDATE meta SET value = '2' WHERE name = 'schema_version'"), "");
  CommandResult add =
      run_bookforge({"db", "add", "--db", old.string(), sample("twic0920-2000.pgn").string()});
  EXPECT_EQ(add.exit_code, 1);
  EXPECT_NE(add.err.find("(store schema version 2), which kept no byte offsets of its games"),
            std::string::npos)
      << add.err;
}

}  // namespace
}  // namespace bookforge::test
