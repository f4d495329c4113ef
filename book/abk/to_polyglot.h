// Turning an ABK book's records into Polyglot entries, and so into a PolyglotBook that every
// book command reads like a .bin.
//
// The weight mapping: a move's Polyglot weight is the number of games the ABK book counts for
// it, so that it is played as often as it was in the book's games; where no move of a position
// has a game (a hand-made book), the author's priorities are the weights instead. Win and loss
// counts are not used: the public descriptions of the format do not say from whose side they
// count. A position reached along several
// lines has each move once, its games summed (priority: the highest). Weights that pass 65535
// are scaled down per position (book/polyglot/weight_scale.h); learn is 0.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "book/abk/reader.h"
#include "book/polyglot/format.h"
#include "book/polyglot/reader.h"

namespace bookforge::book {

// Sorted in book order (format.h), one entry per (key, move).
std::vector<PolyglotEntry> abk_to_polyglot(const std::vector<AbkMove>& moves);

// The ABK book in these bytes, read and converted; `name` is for messages.
Result<PolyglotBook> polyglot_from_abk(std::span<const unsigned char> bytes, const std::string& name);

}  // namespace bookforge::book
