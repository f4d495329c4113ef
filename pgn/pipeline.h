// The parallel reading pipeline: one reader/decompressor thread cuts the inputs into blocks
// at game boundaries; N worker threads lex, filter and replay the games and hand each
// accepted game to their own GameSink. Counts are sums, so the results do not depend on the
// number of threads or on where blocks were cut.
#pragma once

#include <functional>

#include "base/result.h"
#include "pgn/game.h"
#include "pgn/pipeline_options.h"
#include "pgn/read_stats.h"

namespace bookforge::pgn {

// Creates the sink of worker `index` (0 .. threads-1); called once per worker before reading.
using SinkFactory = std::function<GameSink&(int index)>;

// Reads every input and calls the sinks. An I/O or decompression error (or, with strict, a bad
// game) ends the run with an Error naming the file and byte offset. So does an input in which
// no game has a legal move or a tag section (see replay.h: empty, binary, or text that is not
// PGN); games filtered out, of other variants or bad still make an input PGN.
Result<ReadStats> read_games(const PipelineOptions& options, const SinkFactory& sinks);

// The number of worker threads read_games will use for these options.
int pipeline_threads(const PipelineOptions& options);

}  // namespace bookforge::pgn
