#include "pgn/replay_text.h"

#include "pgn/lexer.h"
#include "pgn/replay.h"

namespace bookforge::pgn {
namespace {

class CallbackSink final : public GameSink {
 public:
  explicit CallbackSink(const std::function<void(const ReplayedGame&)>& on_game) : on_game_(on_game) {}
  void on_game(const ReplayedGame& game) override {
    replayed_ = true;
    on_game_(game);
  }
  bool replayed() const { return replayed_; }

 private:
  const std::function<void(const ReplayedGame&)>& on_game_;
  bool replayed_ = false;
};

}  // namespace

Status replay_game_text(std::string_view text, const std::string& origin, const PipelineOptions& options,
                        const std::function<void(const ReplayedGame&)>& on_game) {
  CallbackSink sink(on_game);
  WorkerStats stats;
  GameReplayer replayer(options, sink, stats);
  replayer.set_origin(&origin, 1, 1, 0);
  visit_game_text(text, replayer);
  if (replayer.last_game_bad()) {
    const BadGame& bad = replayer.last_bad_game();
    return Error{origin + ": line " + std::to_string(bad.line) + ": " + bad.detail};
  }
  if (stats.stats.unsupported_variant) return Error{origin + ": not a game of standard chess"};
  if (!sink.replayed()) return Error{origin + ": no game with a legal move"};
  return ok_status();
}

}  // namespace bookforge::pgn
