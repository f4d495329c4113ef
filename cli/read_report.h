// How the results of a PGN read are shown: the human summary and the warnings about bad games
// that build and db add print on stderr (the JSON object is json/read_json.h's).
#pragma once

#include <string>

#include "pgn/pipeline.h"

namespace bookforge::cli {

// Several lines: games, accepted, rejected per filter, bad games per reason with the first
// examples in full, unsupported variants, plies, bytes, time.
std::string format_read_summary(const pgn::ReadStats& stats);

// Prints the first bad games in full and a one-line summary by reason as warnings on stderr
// (nothing when there were none).
void warn_bad_games(const pgn::ReadStats& stats);

// Why a read kept no game, in one line: how many games were read and where they went
// (rejected by which filters, bad for which reasons, unsupported variants).
std::string describe_no_game_kept(const pgn::ReadStats& stats);

}  // namespace bookforge::cli
