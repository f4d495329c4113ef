// SAN round trip on real games: every move of every game is parsed, found among the legal
// moves, printed back identically (modulo annotation glyphs), and the printed text parses to
// the same move.
#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess/san.h"
#include "movetext.h"
#include "support/test_support.h"

namespace bookforge::chess {
namespace {

// Splits "Nf3+!?" into the move "Nf3" and its check mark "+".
std::pair<std::string_view, std::string_view> split_marks(std::string_view san) {
  while (!san.empty() && (san.back() == '!' || san.back() == '?')) san.remove_suffix(1);
  size_t body = san.size();
  while (body > 0 && (san[body - 1] == '+' || san[body - 1] == '#')) --body;
  return {san.substr(0, body), san.substr(body)};
}

// The printed SAN must equal the input up to annotation glyphs. Sources with `exact_marks`
// (TWIC, lichess) must also agree on + and #; the older pgnmentor records sometimes mark a mate
// with '+' or leave out the '+' of a discovered check, so there only the move itself counts.
bool same_san(std::string_view input, std::string_view printed, bool exact_marks) {
  auto [in_move, in_mark] = split_marks(input);
  auto [out_move, out_mark] = split_marks(printed);
  return in_move == out_move && (in_mark == out_mark || !exact_marks);
}

struct RoundTripStats {
  size_t games = 0, plies = 0;
};

// Stops at the first failing game (with its number and move) rather than flooding the log.
RoundTripStats round_trip(const std::vector<test::GameMoves>& games, const std::string& source,
                          bool exact_marks = true) {
  RoundTripStats stats;
  for (size_t g = 0; g < games.size(); ++g) {
    const test::GameMoves& game = games[g];
    auto start = game.fen.empty() ? Result<Board>(Board()) : Board::from_fen(game.fen);
    if (!start.ok()) {
      ADD_FAILURE() << source << " game " << g + 1 << ": " << start.error().message;
      return stats;
    }
    Board board = *start;
    for (size_t ply = 0; ply < game.sans.size(); ++ply) {
      const std::string& san = game.sans[ply];
      auto where = [&] {
        return source + " game " + std::to_string(g + 1) + " ply " + std::to_string(ply + 1) + " " + san +
               " in " + board.fen();
      };
      SanResult r = san_to_move(board, san);
      if (!r.ok()) {
        ADD_FAILURE() << where() << ": " << san_error_message(r.error);
        return stats;
      }
      MoveList legal;
      generate_legal(board, legal);
      if (!legal.contains(r.move)) {
        ADD_FAILURE() << where() << ": resolved to a move the generator does not list";
        return stats;
      }
      const std::string printed = move_to_san(board, r.move);
      if (!same_san(san, printed, exact_marks)) {
        ADD_FAILURE() << where() << ": printed as " << printed;
        return stats;
      }
      SanResult again = san_to_move(board, printed);
      if (!again.ok() || again.move != r.move) {
        ADD_FAILURE() << where() << ": printed " << printed << " does not parse back";
        return stats;
      }
      UndoInfo undo;
      board.make_move(r.move, undo);
      ++stats.plies;
    }
    ++stats.games;
  }
  return stats;
}

// The first `max_bytes` of a zstd-compressed file, through the zstd tool (empty if missing).
std::string zstd_head(const std::filesystem::path& path, size_t max_bytes) {
  const std::string command = "zstd -dcq '" + path.string() + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  std::string text;
  if (!pipe) return text;
  char buf[65536];
  while (text.size() < max_bytes) {
    size_t n = std::fread(buf, 1, sizeof buf, pipe.get());
    if (n == 0) break;
    text.append(buf, n);
  }
  return text;
}

TEST(SanGames, DataSamplesRoundTrip) {
  size_t games = 0;
  for (const char* name : {"data-samples/twic0920-2000.pgn", "data-samples/lichess-2016-05-1000.pgn"}) {
    const auto path = test::source_dir() / name;
    if (!std::filesystem::exists(path)) continue;
    auto parsed = test::read_games(test::read_file(path));
    RoundTripStats stats = round_trip(parsed, name);
    EXPECT_EQ(stats.games, parsed.size()) << name;
    games += stats.games;
  }
  if (games == 0) GTEST_SKIP() << "data-samples/ has no sample games yet";
  EXPECT_GE(games, 1000u);
}

TEST(SanGames, SharedGamesRoundTrip) {
  BOOKFORGE_SHARED_OR_SKIP(dir, "games");
  RoundTripStats total;
  auto run = [&](const std::string& text, const std::string& name, bool exact_marks) {
    auto parsed = test::read_games(text);
    RoundTripStats stats = round_trip(parsed, name, exact_marks);
    EXPECT_EQ(stats.games, parsed.size()) << name;
    total.games += stats.games;
    total.plies += stats.plies;
  };
  for (const char* name :
       {"twic0920.pgn", "lichess-org-database_2016-05.pgn", "lichess-org-database_2017-05.pgn"}) {
    if (std::filesystem::exists(dir / name)) run(test::read_file(dir / name), name, true);
  }
  // Over-the-board master games from three eras: the start of each pgnmentor part.
  for (const char* name : {"pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst",
                           "pgnmentor_players_part2_IvanovA-Petrosian.pgn.zst",
                           "pgnmentor_players_part3_Philidor-Zvjaginsev.pgn.zst"}) {
    if (std::filesystem::exists(dir / name)) run(zstd_head(dir / name, 2'000'000), name, false);
  }
  std::printf("SAN round trip: %zu games, %zu plies\n", total.games, total.plies);
  EXPECT_GE(total.games, 10000u);
}

}  // namespace
}  // namespace bookforge::chess
