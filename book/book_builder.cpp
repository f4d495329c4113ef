#include "book/book_builder.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <thread>

#include "book/polyglot/walk.h"
#include "book/polyglot/weight_scale.h"

namespace bookforge::book {
namespace {

// Hands out the stream's entries one key (one position) at a time, read a batch at a time
// into a buffer that the positions are views of.
class PositionReader {
 public:
  explicit PositionReader(counts::EntryStream& stream) : stream_(stream), buffer_(1024) {}

  // The next position's entries, valid until the next call; false at the end.
  bool next(std::span<const counts::TallyEntry>& moves) {
    for (;;) {
      size_t end = begin_;
      while (end < size_ && buffer_[end].key == buffer_[begin_].key) ++end;
      if (end < size_ || at_end_) {
        if (begin_ == size_) return false;
        moves = std::span<const counts::TallyEntry>(buffer_.data() + begin_, end - begin_);
        begin_ = end;
        return true;
      }
      // The position may go on past the buffer: keep it at the front and read more.
      std::copy(buffer_.begin() + long(begin_), buffer_.begin() + long(size_), buffer_.begin());
      size_ -= begin_;
      begin_ = 0;
      if (size_ == buffer_.size()) buffer_.resize(2 * size_);
      const size_t read = stream_.next_batch(buffer_.data() + size_, buffer_.size() - size_);
      at_end_ = read == 0;
      size_ += read;
    }
  }

 private:
  counts::EntryStream& stream_;
  std::vector<counts::TallyEntry> buffer_;
  size_t begin_ = 0;  // the next position's first entry
  size_t size_ = 0;   // entries in the buffer
  bool at_end_ = false;
};

class PositionWriter {
 public:
  explicit PositionWriter(PolyglotWriter& writer) : writer_(writer) {}

  Status write(const PositionCandidates& position) {
    if (position.moves.empty()) return ok_status();
    uint64_t heaviest = 0;
    for (const Candidate& c : position.moves) heaviest = std::max(heaviest, c.weight);
    if (heaviest > kMaxWeight) ++scaled_positions_;
    entries_.clear();
    for (const Candidate& c : position.moves)
      entries_.push_back({position.key, c.stats.move, scale_weight(c.weight, heaviest), 0});
    return writer_.add_position(entries_);
  }

  uint64_t scaled_positions() const { return scaled_positions_; }

 private:
  PolyglotWriter& writer_;
  std::vector<PolyglotEntry> entries_;
  uint64_t scaled_positions_ = 0;
};

StageCount count_positions(std::string_view name, const std::vector<PositionCandidates>& positions) {
  StageCount count{name, 0, 0};
  for (const PositionCandidates& p : positions) {
    if (p.moves.empty()) continue;
    ++count.positions;
    count.entries += p.moves.size();
  }
  return count;
}

// Walks the kept positions from the start; `visit` gets each reached one with its index. In a
// one-sided book the other side's positions have no moves: all their legal moves are followed.
uint64_t walk_kept(std::vector<PositionCandidates>& kept, SideFilter side,
                   const std::function<void(const chess::Board&, int depth, size_t index)>& visit) {
  auto index_of = [&](uint64_t key) {
    auto it = std::lower_bound(kept.begin(), kept.end(), key,
                               [](const PositionCandidates& p, uint64_t k) { return p.key < k; });
    return it != kept.end() && it->key == key ? size_t(it - kept.begin()) : kept.size();
  };
  auto moves_of = [&](uint64_t key, std::vector<uint16_t>& moves) {
    size_t i = index_of(key);
    if (i == kept.size()) return;
    for (const Candidate& c : kept[i].moves) moves.push_back(c.stats.move);
  };
  WalkOptions options;
  if (side == SideFilter::kWhite) options.pass_through = chess::kBlack;
  if (side == SideFilter::kBlack) options.pass_through = chess::kWhite;
  WalkStats stats = walk_book(
      moves_of, [&](const chess::Board& board, int depth) { visit(board, depth, index_of(board.key())); }, {},
      options);
  return stats.positions;
}

// The rules over one partition of the tally, on whichever thread runs it.
struct PartitionRun {
  explicit PartitionRun(const SelectionRules& rules) : selector(rules) {}
  MoveSelector selector;
  std::vector<PositionCandidates> kept;  // when a walk follows
  uint64_t scaled_positions = 0;
  Status status = ok_status();
};

// Writes the kept positions into `out`, or collects them in run.kept when `out` is null (a
// walk follows).
void run_partition(counts::EntryStream& stream, PolyglotWriter* out, PartitionRun& run) {
  PositionReader reader(stream);
  std::optional<PositionWriter> writer;
  if (out) writer.emplace(*out);
  std::span<const counts::TallyEntry> moves;
  PositionCandidates candidates;
  while (reader.next(moves)) {
    if (moves.size() == 1 && run.selector.rejects_only_move(moves[0])) continue;
    if (!run.selector.select(moves, candidates)) continue;
    if (!writer) {
      run.kept.push_back(std::move(candidates));
      candidates = {};
    } else if (Status s = writer->write(candidates); !s.ok()) {
      run.status = s;
      return;
    }
  }
  run.status = stream.status();
  if (writer) run.scaled_positions = writer->scaled_positions();
}

}  // namespace

Result<BuildOutcome> build_book(counts::EntryStream& tally, const SelectionRules& rules,
                                CandidateTransformer* transformer, PolyglotWriter& writer) {
  counts::EntryStream* partitions[] = {&tally};
  return build_book(partitions, rules, transformer, writer);
}

Result<BuildOutcome> build_book(std::span<counts::EntryStream* const> partitions, const SelectionRules& rules,
                                CandidateTransformer* transformer, PolyglotWriter& writer) {
  BuildOutcome outcome;
  PositionWriter out(writer);
  const bool collect = rules.prune_unreachable || transformer != nullptr;

  // Step 1: the rules, one position at a time, straight into the book unless a walk follows.
  // Each partition's keys follow the previous one's: the first goes into the book on this
  // thread, every later one on a thread of its own into a writer of its own, appended after it.
  std::vector<PartitionRun> runs;
  std::vector<PolyglotWriter> later;  // partitions 1.. when written at once
  runs.reserve(partitions.size());
  for (size_t i = 0; i < partitions.size(); ++i) {
    runs.emplace_back(rules);
    if (i == 0 || collect) continue;
    Result<PolyglotWriter> partition = PolyglotWriter::create_for_partition(writer.folder());
    if (!partition) return partition.error();
    later.push_back(std::move(*partition));
  }
  {
    std::vector<std::jthread> threads;
    for (size_t i = 1; i < partitions.size(); ++i)
      threads.emplace_back(
          [&, i] { run_partition(*partitions[i], collect ? nullptr : &later[i - 1], runs[i]); });
    if (!partitions.empty()) run_partition(*partitions[0], collect ? nullptr : &writer, runs[0]);
  }
  std::vector<PositionCandidates> kept;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].status.ok()) return runs[i].status.error();
    if (i > 0 && !collect)
      if (Status s = writer.append(later[i - 1]); !s.ok()) return s.error();
    outcome.scaled_positions += runs[i].scaled_positions;
    if (collect) {
      if (kept.empty())
        kept = std::move(runs[i].kept);
      else
        std::move(runs[i].kept.begin(), runs[i].kept.end(), std::back_inserter(kept));
    }
    const auto& stages = runs[i].selector.stages();
    if (i == 0)
      outcome.stages.assign(stages.begin(), stages.end());
    else
      for (size_t s = 0; s < stages.size(); ++s) {
        outcome.stages[s].positions += stages[s].positions;
        outcome.stages[s].entries += stages[s].entries;
      }
  }

  if (collect) {
    // Step 2: the transformer sees every position reachable through kept moves, with a board.
    if (transformer) {
      std::vector<ReachablePosition> reached;
      outcome.reachable_positions =
          walk_kept(kept, rules.side, [&](const chess::Board& board, int depth, size_t index) {
            reached.push_back({board, &kept[index], depth});
          });
      std::sort(reached.begin(), reached.end(), [](const ReachablePosition& a, const ReachablePosition& b) {
        return a.candidates->key < b.candidates->key;
      });
      if (Status s = transformer->transform(reached); !s.ok()) return s.error();
      outcome.stages.push_back(count_positions(transformer->name(), kept));
    }
    // Step 3: pruning, after the transformer, which may have cut lines off.
    if (rules.prune_unreachable) {
      std::vector<bool> reachable(kept.size(), false);
      outcome.reachable_positions = walk_kept(
          kept, rules.side, [&](const chess::Board&, int, size_t index) { reachable[index] = true; });
      for (size_t i = 0; i < kept.size(); ++i)
        if (!reachable[i]) kept[i].moves.clear();
      outcome.stages.push_back(count_positions("prune_unreachable", kept));
    }
    for (const PositionCandidates& p : kept)
      if (Status s = out.write(p); !s.ok()) return s.error();
  }
  outcome.stages.push_back({"written", writer.positions(), writer.entries()});
  outcome.scaled_positions += out.scaled_positions();
  return outcome;
}

}  // namespace bookforge::book
