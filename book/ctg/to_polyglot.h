// Turning a CTG book's moves into Polyglot entries, and so into a PolyglotBook that every book
// command reads like a .bin.
//
// The weight mapping. A move's statistics are those of the position it leads to, counted for
// the side that plays it. Its raw weight is, for every move of the position alike:
//   - 2 x wins + draws (the half points it scored, Polyglot's own make-book weight), when any
//     move of the position has a game with a result;
//   - else its games, when any move has games (games without results);
//   - else 1 (a hand-made book: every move alike).
// Then the author's marks: a move marked red ("do not play"), "?" or "??" weighs 0 (listed,
// never chosen); "?!" halves the weight; "!" doubles it, "!!" multiplies it by 4, and a green
// mark ("play it") doubles it; "!?", "only move" and the rest leave it. Weights that pass 65535
// are scaled down per position (book/polyglot/weight_scale.h); learn is 0.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "book/ctg/reader.h"
#include "book/polyglot/format.h"
#include "book/polyglot/reader.h"

namespace bookforge::book {

// Sorted in book order (format.h), one entry per (key, move): a move a position lists twice
// counts once.
std::vector<PolyglotEntry> ctg_to_polyglot(const std::vector<CtgMove>& moves);

// The CTG book in these bytes (a .ctg file), read and converted; `name` is for messages.
Result<PolyglotBook> polyglot_from_ctg(std::span<const unsigned char> bytes, const std::string& name);

}  // namespace bookforge::book
