// What the book end-to-end tests check books against, computed without bookforge's PGN reader,
// tally, rules or book reader: a small PGN replayer of its own (tags, comments, variations,
// NAGs, move numbers; SAN through the chess core), a std::map count of (key, move), and the raw
// 16-byte entries of a book file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bookforge::test {

// Splits movetext into tokens: the moves and the result token, without comments, variations,
// NAGs and move numbers.
std::vector<std::string> movetext_tokens(const std::string& text);

// Whether a token ends the movetext ("1-0", "0-1", "1/2-1/2", "*").
inline bool is_result_token(const std::string& token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

struct ReplayedTestGame {
  std::vector<std::pair<uint64_t, uint16_t>> plies;  // (key before the move, Polyglot move)
  int result = 0;                                    // +1 White won, 0 draw, -1 Black won, 2 unknown
  int white_elo = 0, black_elo = 0;
};

// Replays every game of a PGN file from the start position, up to max_ply plies (0: all).
// Games with a [FEN] tag or a move the core rejects are left out; `skipped` counts them.
std::vector<ReplayedTestGame> replay_pgn_file(const std::filesystem::path& path, int max_ply,
                                              int* skipped = nullptr);

struct MoveCounts {
  uint64_t games = 0, white = 0, draws = 0, black = 0;
};

// (key, move) -> counts, a repeated (key, move) counted once per game unless count_repeats.
std::map<std::pair<uint64_t, uint16_t>, MoveCounts> count_moves(const std::vector<ReplayedTestGame>& games,
                                                                bool count_repeats);

struct RawEntry {
  uint64_t key;
  uint16_t move, weight;
  uint32_t learn;
};
std::vector<RawEntry> read_raw_book(const std::filesystem::path& path);

// key -> {move -> weight}
using BookMap = std::map<uint64_t, std::map<uint16_t, uint16_t>>;
BookMap book_map(const std::vector<RawEntry>& entries);

}  // namespace bookforge::test
