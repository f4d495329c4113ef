// One game given as text (a game pasted into the explorer page), replayed as the pipeline
// replays each game of a file (pgn/replay.h): the same rules for tags, [FEN], null moves,
// variations and comments, and the same reasons for a bad game.
#pragma once

#include <functional>
#include <string_view>

#include "base/result.h"
#include "pgn/game.h"
#include "pgn/pipeline_options.h"

namespace bookforge::pgn {

// Hands the replayed game to `on_game` (its views valid during the call only), or fails with
// the reason the game is bad ("illegal_move: move 23... Nxe5: ..."), is of another variant, or
// is no game at all. `origin` names the text in messages and as the game's file. The text is
// taken as one game, as pgn/lexer.h's visit_game_text takes it.
Status replay_game_text(std::string_view text, const std::string& origin, const PipelineOptions& options,
                        const std::function<void(const ReplayedGame&)>& on_game);

}  // namespace bookforge::pgn
