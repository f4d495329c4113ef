// Walks the games of a block and pushes their parts to a visitor. Tags and moves are
// borrowed views into the block: nothing is allocated per move.
#pragma once

#include "pgn/chunker.h"
#include "pgn/splitter.h"
#include "pgn/visitor.h"

namespace bookforge::pgn {

// Visits one game of `block` (a span the splitter found). Returns kStop when the visitor asked
// to stop, else kContinue.
Control visit_game(const Block& block, const GameSpan& span, Visitor& visitor);

// Visits one game given as text (tests): the text is taken as a whole game.
Control visit_game_text(std::string_view text, Visitor& visitor);

}  // namespace bookforge::pgn
