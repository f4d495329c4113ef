#include "engine/epd.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "chess/san.h"

namespace bookforge::engine {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Splits the operations at semicolons that are not inside a quoted string.
std::vector<std::string> split_operations(std::string_view text) {
  std::vector<std::string> ops;
  std::string current;
  bool quoted = false;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (c == ';' && !quoted) {
      ops.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  ops.push_back(current);
  return ops;
}

std::string unquote(std::string s) {
  const size_t a = s.find_first_not_of(" \t");
  const size_t b = s.find_last_not_of(" \t");
  if (a == std::string::npos) return "";
  s = s.substr(a, b - a + 1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

Result<std::vector<chess::Move>> san_list(const chess::Board& board, const std::string& operands,
                                          const std::string& op) {
  std::vector<chess::Move> moves;
  std::istringstream in(operands);
  for (std::string san; in >> san;) {
    const chess::SanResult r = chess::san_to_move(board, san);
    if (!r.ok()) return Error{op + " move '" + san + "': " + std::string(chess::san_error_message(r.error))};
    moves.push_back(r.move);
  }
  return moves;
}

}  // namespace

Result<EpdRecord> parse_epd(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::string fields[4];
  for (std::string& f : fields)
    if (!(in >> f)) return Error{"an EPD record needs four FEN fields"};
  std::string rest;
  std::getline(in, rest);
  // Optional move counters right after the four fields.
  std::string counters = "0 1";
  size_t pos = 0;
  auto next_token = [&](size_t from, size_t& end) {
    const size_t start = rest.find_first_not_of(" \t", from);
    if (start == std::string::npos) return end = rest.size(), std::string();
    end = rest.find_first_of(" \t", start);
    if (end == std::string::npos) end = rest.size();
    return rest.substr(start, end - start);
  };
  size_t after_first = 0, after_second = 0;
  const std::string first = next_token(pos, after_first);
  if (all_digits(first)) {
    const std::string second = next_token(after_first, after_second);
    const bool both = all_digits(second);
    counters = first + " " + (both ? second : "1");
    rest = rest.substr(both ? after_second : after_first);
  }
  Result<chess::Board> board = chess::Board::from_fen(fields[0] + " " + fields[1] + " " + fields[2] + " " +
                                                      fields[3] + " " + counters);
  if (!board.ok()) return Error{"bad position: " + board.error().message};

  EpdRecord record;
  record.board = *board;
  std::vector<std::string> c8, c9;
  for (const std::string& op_text : split_operations(rest)) {
    std::istringstream op_in(op_text);
    std::string op;
    if (!(op_in >> op)) continue;
    std::string operands;
    std::getline(op_in, operands);
    if (op == "bm" || op == "am") {
      Result<std::vector<chess::Move>> moves = san_list(record.board, operands, op);
      if (!moves.ok()) return moves.error();
      (op == "bm" ? record.best_moves : record.avoid_moves) = *moves;
    } else if (op == "id") {
      record.id = unquote(operands);
    } else if (op == "c8" || op == "c9") {
      std::istringstream items(unquote(operands));
      std::vector<std::string>& list = op == "c8" ? c8 : c9;
      for (std::string item; items >> item;) list.push_back(item);
    }
  }
  if (!c9.empty() && c8.size() == c9.size()) {
    for (size_t i = 0; i < c9.size(); ++i) {
      const chess::Move m = chess::uci_to_move(record.board, c9[i]);
      int points = 0;
      auto [p, ec] = std::from_chars(c8[i].data(), c8[i].data() + c8[i].size(), points);
      if (!m.is_ok() || ec != std::errc())
        return Error{"c8/c9 entry " + c9[i] + "=" + c8[i] + " is not a legal move with points"};
      record.points.emplace_back(m, points);
    }
  }
  return record;
}

int epd_points(const EpdRecord& record, chess::Move move) {
  for (const auto& [m, p] : record.points)
    if (m == move) return p;
  return 0;
}

bool epd_solved(const EpdRecord& record, chess::Move move) {
  if (std::find(record.avoid_moves.begin(), record.avoid_moves.end(), move) != record.avoid_moves.end())
    return false;
  if (record.best_moves.empty()) return !record.avoid_moves.empty();
  return std::find(record.best_moves.begin(), record.best_moves.end(), move) != record.best_moves.end();
}

}  // namespace bookforge::engine
