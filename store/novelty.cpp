#include "store/novelty.h"

#include <climits>
#include <optional>

#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "pgn/pipeline.h"
#include "pgn/replay.h"
#include "pgn/replay_text.h"
#include "store/explore.h"

namespace bookforge::store {
namespace {

// The move `move` (`polyglot_move`) as explored in `position`: its figures there, or only its
// names when no game played it.
ExploredMove explored_move(const Exploration& position, const chess::Board& board, chess::Move move,
                           uint16_t polyglot_move) {
  for (const ExploredMove& m : position.moves)
    if (m.polyglot_move == polyglot_move) return m;
  ExploredMove unplayed;
  unplayed.move = move;
  unplayed.polyglot_move = polyglot_move;
  unplayed.uci = chess::move_to_uci(move);
  unplayed.san = chess::move_to_san(board, move);
  return unplayed;
}

// Walks one replayed game through the store until its novelty or its last recorded ply.
Result<GameNovelty> walk_game(Store& store, const pgn::ReplayedGame& game, const NoveltyOptions& options,
                              int max_ply) {
  GameNovelty out;
  out.game = game_record(game, 0, 0);
  out.file = game.file ? *game.file : std::string();
  out.global_number = game.game_number;
  // The replay already accepted the game, so its start position and moves are legal.
  Result<chess::Board> start = pgn::start_position(*game.tags);
  if (!start) return start.error();
  chess::Board board = *start;
  for (const pgn::PlyRecord& ply : game.plies) {
    const chess::Move move = chess::polyglot_to_move(board, ply.move);
    if (move == chess::Move::none())
      return Error{out.file + ": game " + std::to_string(game.number_in_file) + ": ply " +
                   std::to_string(ply.ply) + " does not replay"};
    Result<Exploration> position = explore(store, board, options.filter);
    if (!position) return position.error();
    PathMove step;
    step.ply = ply.ply + 1;
    step.move_number = board.fullmove_number();
    step.black_moves = board.side_to_move() == chess::kBlack;
    step.position_games = position->games;
    step.move = explored_move(*position, board, move, ply.move);
    out.path.push_back(std::move(step));
    if (out.path.back().move.games < options.min_games) {
      out.left_tree = true;
      Result<std::vector<GameRecord>> top = store.games_at(board.key(), Store::GameOrder::kTopRated);
      if (!top) return top.error();
      out.top_games = std::move(*top);
      return out;
    }
    chess::UndoInfo undo;
    board.make_move(move, undo);
  }
  out.reached_max_ply = max_ply > 0 && out.path.size() >= size_t(max_ply);
  return out;
}

// The pipeline's only sink: walks each game as it comes (on the reader's one worker thread,
// which alone uses the store meanwhile) and keeps the first error, after which it walks no more.
class WalkingSink final : public pgn::GameSink {
 public:
  WalkingSink(Store& store, const NoveltyOptions& options, int max_ply,
              const std::function<void(const GameNovelty&)>& on_game)
      : store_(store), options_(options), max_ply_(max_ply), on_game_(on_game) {}

  void on_game(const pgn::ReplayedGame& game) override {
    if (error_) return;
    Result<GameNovelty> walked = walk_game(store_, game, options_, max_ply_);
    if (!walked) {
      error_ = walked.error();
      return;
    }
    on_game_(*walked);
  }

  const std::optional<Error>& error() const { return error_; }

 private:
  Store& store_;
  const NoveltyOptions& options_;
  int max_ply_;
  const std::function<void(const GameNovelty&)>& on_game_;
  std::optional<Error> error_;
};

// The store's max-ply (0: none), past which every move would leave the tree.
Result<int> store_max_ply(Store& store) {
  Result<std::optional<CountingSettings>> settings = store.settings();
  if (!settings) return settings.error();
  if (!*settings) return Error{store.path() + ": nothing was added to this store"};
  return (*settings)->max_ply;
}

}  // namespace

Result<GameNovelty> find_novelty_in_text(Store& store, std::string_view pgn_text, const std::string& origin,
                                         const counts::SliceFilter& filter, uint64_t min_games) {
  Result<int> max_ply = store_max_ply(store);
  if (!max_ply) return max_ply.error();
  NoveltyOptions options;
  options.pipeline.max_ply = *max_ply;
  options.filter = filter;
  options.min_games = min_games;
  std::optional<Result<GameNovelty>> walked;
  Status read = pgn::replay_game_text(pgn_text, origin, options.pipeline, [&](const pgn::ReplayedGame& game) {
    walked.emplace(walk_game(store, game, options, *max_ply));
  });
  if (!read) return read.error();
  return std::move(*walked);
}

Result<NoveltyReport> find_novelties(Store& store, NoveltyOptions options,
                                     const std::function<void(const GameNovelty&)>& on_game) {
  Result<int> max_ply = store_max_ply(store);
  if (!max_ply) return max_ply.error();
  NoveltyReport report;
  report.max_ply = *max_ply;
  // Past the store's max-ply every move would leave the tree: the walk stops there.
  options.pipeline.max_ply = report.max_ply;
  // One worker, so that games come in input order and the store has one user.
  options.pipeline.threads = 1;
  options.pipeline.max_reported_bad_games = INT_MAX;
  WalkingSink sink(store, options, report.max_ply, on_game);
  Result<pgn::ReadStats> read =
      pgn::read_games(options.pipeline, [&](int) -> pgn::GameSink& { return sink; });
  if (!read) return read.error();
  if (sink.error()) return *sink.error();
  report.read = std::move(*read);
  return report;
}

}  // namespace bookforge::store
