#include "pgn/recording_visitor.h"

#include "support/test_support.h"

namespace bookforge::pgn::test {

std::ostream& operator<<(std::ostream& out, const RecordedGame& g) {
  out << "{line " << g.line << ", tags:";
  for (const auto& [n, v] : g.tags) out << " " << n << "=" << v;
  out << ", moves:";
  for (const auto& m : g.moves) out << " " << m;
  out << ", outcome: " << g.outcome << ", errors:";
  for (const auto& e : g.errors) out << " " << e;
  return out << "}";
}

Control RecordingVisitor::begin_game(const GameContext& game) {
  game_ = &game;
  games.emplace_back();
  games.back().line = game.first_line;
  games.back().context_result = std::string(game.result);
  return Control::kContinue;
}

Control RecordingVisitor::tag(std::string_view name, TagValue value) {
  games.back().tags.emplace_back(std::string(name), value.decode());
  return Control::kContinue;
}

Control RecordingVisitor::san(std::string_view token) {
  games.back().moves.emplace_back(token);
  return Control::kContinue;
}

Control RecordingVisitor::nag(int nag) {
  games.back().nags.push_back(nag);
  return Control::kContinue;
}

Control RecordingVisitor::comment(std::string_view text) {
  games.back().comments.emplace_back(text);
  return Control::kContinue;
}

Control RecordingVisitor::begin_variation() {
  games.back().moves.emplace_back("(");
  return Control::kContinue;
}

Control RecordingVisitor::end_variation() {
  games.back().moves.emplace_back(")");
  return Control::kContinue;
}

Control RecordingVisitor::outcome(Outcome, std::string_view token) {
  games.back().outcome = std::string(token);
  return Control::kContinue;
}

Control RecordingVisitor::error(LexError error, const char* where) {
  std::string text(lex_error_reason(error));
  if (where) {
    text += '@';
    text += std::to_string(game_->line_of(where));
  }
  games.back().errors.push_back(text);
  return Control::kContinue;
}

std::vector<RecordedGame> record_games(std::string_view text, size_t block_size) {
  auto source = memory_source(text);
  Chunker chunker(*source, block_size, size_t(64) << 20);
  RecordingVisitor visitor;
  Block block;
  for (;;) {
    Result<bool> more = chunker.next(block);
    EXPECT_TRUE(more.ok());
    if (!more.ok() || !*more) break;
    for (const GameSpan& span : block.games) visit_game(block, span, visitor);
  }
  return visitor.games;
}

std::string test_pgn(const std::string& name) {
  return bookforge::test::read_file(bookforge::test::source_dir() / "tests/data/pgn" / name);
}

}  // namespace bookforge::pgn::test
