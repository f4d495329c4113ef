// From counts to a book: the tally's (key, move) stream goes through the selection rules one
// position at a time, optionally through reachability pruning and a candidate transformer
// (engine rescoring), and into the Polyglot writer, weights scaled per position.
//
// Without pruning or a transformer the book is written while the stream is read (the stream
// is in key order, so the book comes out sorted and only one position is held at a time).
// With either, the kept positions are collected first and walked from the start position.
//
// A tally in several partitions (counts/tally.h) goes through the rules on all of them at
// once: the first is written into the book, each later one into a writer of its own, appended
// in order at the end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"
#include "book/candidates.h"
#include "book/move_selection.h"
#include "book/polyglot/writer.h"
#include "book/selection_rules.h"
#include "counts/entry.h"

namespace bookforge::book {

struct BuildOutcome {
  // Positions and entries after each stage: the tally, each rule, then pruning and the
  // transformer when they ran, then what was written.
  std::vector<StageCount> stages;
  uint64_t scaled_positions = 0;     // positions whose raw weights had to be scaled into 16 bits
  uint64_t reachable_positions = 0;  // when a walk ran
};

Result<BuildOutcome> build_book(counts::EntryStream& tally, const SelectionRules& rules,
                                CandidateTransformer* transformer, PolyglotWriter& writer);

// The same over a tally in partitions (Tally::finish_partitions: each one's keys after the
// previous one's), the rules applied to every partition at once, each on a thread of its own.
// The book is the same as from the partitions' concatenation.
Result<BuildOutcome> build_book(std::span<counts::EntryStream* const> partitions, const SelectionRules& rules,
                                CandidateTransformer* transformer, PolyglotWriter& writer);

}  // namespace bookforge::book
