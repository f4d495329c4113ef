// Test helpers for the PGN reader: a visitor that writes down everything it is told, and a
// driver that runs source -> chunker -> lexer over text at a chosen block size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "pgn/chunker.h"
#include "pgn/lexer.h"
#include "pgn/visitor.h"

namespace bookforge::pgn::test {

struct RecordedGame {
  uint64_t line = 0;
  std::vector<std::pair<std::string, std::string>> tags;  // decoded values
  std::vector<std::string> moves;  // main line and variations; "(" and ")" mark variations
  std::vector<int> nags;
  std::vector<std::string> comments;
  std::string outcome;         // the result token as written, "" when none
  std::string context_result;  // what the splitter saw as the final result token
  std::vector<std::string> errors;

  std::string tag(const std::string& name) const {
    for (const auto& [n, v] : tags)
      if (n == name) return v;
    return "<missing>";
  }
  bool operator==(const RecordedGame&) const = default;
};

std::ostream& operator<<(std::ostream& out, const RecordedGame& g);

class RecordingVisitor : public Visitor {
 public:
  std::vector<RecordedGame> games;

  Control begin_game(const GameContext& game) override;
  Control tag(std::string_view name, TagValue value) override;
  Control san(std::string_view token) override;
  Control nag(int nag) override;
  Control comment(std::string_view text) override;
  Control begin_variation() override;
  Control end_variation() override;
  Control outcome(Outcome outcome, std::string_view token) override;
  Control error(LexError error, const char* where) override;

 private:
  const GameContext* game_ = nullptr;
};

// Reads `text` through a memory source cut into `block_size` reads and records every game.
std::vector<RecordedGame> record_games(std::string_view text, size_t block_size = 1 << 20);

// The bytes of tests/data/pgn/<name>.
std::string test_pgn(const std::string& name);

}  // namespace bookforge::pgn::test
