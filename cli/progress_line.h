// The one line of progress a long read prints on stderr: percent of the input, throughput and
// time left, rewritten in place.
#pragma once

#include <functional>

#include "pgn/pipeline.h"

namespace bookforge::cli {

// A callback for PipelineOptions::on_progress that redraws the line on stderr and clears it
// when the read is done.
std::function<void(const pgn::Progress&)> make_progress_printer();

}  // namespace bookforge::cli
