// Test helper: a tiny PGN reader for the SAN tests (the real one lives in pgn/, which the
// engine tests must not depend on). It keeps the main line of each game -- tags, comments,
// variations, NAGs, move numbers and results are dropped -- and the FEN tag if any.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bookforge::test {

struct GameMoves {
  std::string fen;  // empty: the standard start position
  std::vector<std::string> sans;
};

inline bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

// Games end at their result token; a game cut off at the end of `text` is dropped.
inline std::vector<GameMoves> read_games(std::string_view text, size_t max_games = size_t(-1)) {
  std::vector<GameMoves> games;
  GameMoves game;
  int variation_depth = 0;
  size_t i = 0;
  auto skip_to = [&](char c) {
    while (i < text.size() && text[i] != c) ++i;
  };
  while (i < text.size() && games.size() < max_games) {
    const char c = text[i];
    const bool line_start = i == 0 || text[i - 1] == '\n';
    if (line_start && c == '%') {
      skip_to('\n');
    } else if (c == '[' && variation_depth == 0) {
      const size_t end = text.find('\n', i);
      std::string_view tag = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
      if (tag.rfind("[FEN \"", 0) == 0) game.fen = std::string(tag.substr(6, tag.find('"', 6) - 6));
      i = end == std::string_view::npos ? text.size() : end;
    } else if (c == '{') {
      skip_to('}');
      ++i;
    } else if (c == ';') {
      skip_to('\n');
    } else if (c == '(') {
      ++variation_depth;
      ++i;
    } else if (c == ')') {
      --variation_depth;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else {
      size_t start = i;
      while (i < text.size() && std::string_view(" \t\r\n{}();[").find(text[i]) == std::string_view::npos)
        ++i;
      std::string_view token = text.substr(start, i - start);
      if (variation_depth > 0 || token[0] == '$') continue;
      if (is_result(token)) {
        games.push_back(std::move(game));
        game = GameMoves();
        continue;
      }
      // Move numbers, possibly glued to the move ("12.e4", "12...Nf6").
      size_t digits = 0;
      while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
      if (digits > 0 && digits < token.size() && token[digits] == '.') {
        token.remove_prefix(digits);
        while (!token.empty() && token[0] == '.') token.remove_prefix(1);
      }
      if (!token.empty()) game.sans.emplace_back(token);
    }
  }
  return games;
}

}  // namespace bookforge::test
