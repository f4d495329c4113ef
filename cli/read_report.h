// How the results of a PGN read are shown: the human summary, the JSON object of `scan --json`
// and the warnings about bad games that build and db add print on stderr.
#pragma once

#include <string>

#include "pgn/pipeline.h"

namespace bookforge::cli {

// Several lines: games, accepted, rejected per filter, bad games per reason with the first
// examples in full, unsupported variants, plies, bytes, time.
std::string format_read_summary(const pgn::ReadStats& stats);

// {"games": N, "accepted": N, "rejected": {...}, "bad": N, "bad_reasons": {...},
//  "unsupported_variant": N, "plies": N, "bytes": N, "seconds": X, "bad_examples": [...]}
// `extra` is spliced in before the closing brace (e.g. "\"max_ply\": 40"), empty for none.
std::string format_read_json(const pgn::ReadStats& stats, const std::string& extra = "");

// Prints the first bad games in full and a one-line summary by reason as warnings on stderr
// (nothing when there were none).
void warn_bad_games(const pgn::ReadStats& stats);

// Why a read kept no game, in one line: how many games were read and where they went
// (rejected by which filters, bad for which reasons, unsupported variants).
std::string describe_no_game_kept(const pgn::ReadStats& stats);

// A JSON string literal; bytes that are not UTF-8 are read as Latin-1.
std::string json_string(const std::string& text);

}  // namespace bookforge::cli
