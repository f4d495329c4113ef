#include "e2e/book_fixtures.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>

#include "chess/board.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge::test {

std::vector<std::string> movetext_tokens(const std::string& text) {
  std::vector<std::string> tokens;
  int depth = 0;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '{') {
      size_t end = text.find('}', i);
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (c == ';') {
      size_t end = text.find('\n', i);
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (c == '(') {
      ++depth, ++i;
    } else if (c == ')') {
      --depth, ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
             !std::strchr("{}();", text[i]))
        ++i;
      std::string token = text.substr(start, i - start);
      if (depth > 0 || token[0] == '$') continue;
      // Move numbers, possibly glued to the move: "12.", "12...", "12.Nf3".
      size_t digits = 0;
      while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
      if (digits > 0 && digits < token.size() && token[digits] == '.') {
        size_t dots = digits;
        while (dots < token.size() && token[dots] == '.') ++dots;
        token = token.substr(dots);
        if (token.empty()) continue;
      }
      tokens.push_back(token);
    }
  }
  return tokens;
}

namespace {

std::string tag_value(const std::string& line) {
  size_t open = line.find('"'), close = line.rfind('"');
  return open == std::string::npos || close <= open ? std::string() : line.substr(open + 1, close - open - 1);
}

}  // namespace

namespace {

// Replays one game's movetext; false if the core rejects a move.
bool replay_movetext(const std::string& movetext, int max_ply, ReplayedTestGame& game) {
  chess::Board board;
  for (const std::string& token : movetext_tokens(movetext)) {
    if (is_result_token(token)) break;
    if (max_ply > 0 && int(game.plies.size()) >= max_ply) break;
    chess::SanResult r = chess::san_to_move(board, token);
    if (!r.ok()) return false;
    game.plies.push_back({board.key(), chess::move_to_polyglot(r.move)});
    chess::UndoInfo undo;
    board.make_move(r.move, undo);
  }
  return true;
}

}  // namespace

std::vector<ReplayedTestGame> replay_pgn_file(const std::filesystem::path& path, int max_ply, int* skipped) {
  std::istringstream in(read_file(path));
  std::vector<ReplayedTestGame> games;
  int bad = 0;
  ReplayedTestGame game;
  std::string movetext, result;
  bool has_fen = false, started = false, in_movetext = false;
  int comment_depth = 0;
  auto finish = [&] {
    if (started) {
      game.result = result == "1-0" ? 1 : result == "0-1" ? -1 : result == "1/2-1/2" ? 0 : 2;
      if (!has_fen && replay_movetext(movetext, max_ply, game))
        games.push_back(std::move(game));
      else
        ++bad;
    }
    game = {};
    movetext.clear();
    result.clear();
    has_fen = started = in_movetext = false;
  };
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (comment_depth == 0 && first != std::string::npos && line[first] == '[') {
      if (in_movetext) finish();
      started = true;
      std::string name = line.substr(first + 1, line.find_first_of(" \t\"", first) - first - 1);
      if (name == "Result") result = tag_value(line);
      if (name == "WhiteElo") game.white_elo = std::atoi(tag_value(line).c_str());
      if (name == "BlackElo") game.black_elo = std::atoi(tag_value(line).c_str());
      if (name == "FEN") has_fen = true;
      continue;
    }
    if (first == std::string::npos && !in_movetext) continue;
    started = in_movetext = true;
    movetext += line + "\n";
    for (char c : line) comment_depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    comment_depth = std::max(comment_depth, 0);
  }
  finish();
  if (skipped) *skipped = bad;
  return games;
}

std::map<std::pair<uint64_t, uint16_t>, MoveCounts> count_moves(const std::vector<ReplayedTestGame>& games,
                                                                bool count_repeats) {
  std::map<std::pair<uint64_t, uint16_t>, MoveCounts> counts;
  for (const ReplayedTestGame& g : games) {
    std::set<std::pair<uint64_t, uint16_t>> seen;
    for (const auto& ply : g.plies) {
      if (!count_repeats && !seen.insert(ply).second) continue;
      MoveCounts& c = counts[ply];
      ++c.games;
      if (g.result == 1) ++c.white;
      if (g.result == 0) ++c.draws;
      if (g.result == -1) ++c.black;
    }
  }
  return counts;
}

std::vector<RawEntry> read_raw_book(const std::filesystem::path& path) {
  std::string bytes = read_file(path);
  std::vector<RawEntry> entries;
  auto u = [&](size_t at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + size_t(i)]);
    return v;
  };
  for (size_t at = 0; at + 16 <= bytes.size(); at += 16)
    entries.push_back({u(at, 8), uint16_t(u(at + 8, 2)), uint16_t(u(at + 10, 2)), uint32_t(u(at + 12, 4))});
  return entries;
}

BookMap book_map(const std::vector<RawEntry>& entries) {
  BookMap map;
  for (const RawEntry& e : entries) map[e.key][e.move] = e.weight;
  return map;
}

}  // namespace bookforge::test
