// From an entry stream to a book: weights scaled per position, pruning of unreachable
// positions, the candidate transformer hook (what engine rescoring plugs into), errors.
#include "book/book_builder.h"
#include "book/polyglot/probe.h"
#include "book/polyglot/reader.h"
#include "chess/san.h"
#include "counts/entry_merge.h"
#include "support/test_support.h"

namespace bookforge::book {
namespace {

chess::Board after(std::initializer_list<const char*> ucis) {
  chess::Board board;
  for (const char* uci : ucis) {
    chess::UndoInfo undo;
    board.make_move(chess::uci_to_move(board, uci), undo);
  }
  return board;
}

counts::TallyEntry entry(const chess::Board& board, const char* uci, uint32_t games) {
  counts::TallyEntry e;
  e.key = board.key();
  e.move = chess::move_to_polyglot(chess::uci_to_move(board, uci));
  e.games = e.white_wins = games;  // wins for White: a score for White's moves
  e.draws = 0;
  e.first_ply = uint16_t(board.game_ply());
  return e;
}

// start: e4 200000, d4 100000; after e4: e5 50, c5 40; after d4: d5 30; and a position the
// start cannot reach.
std::vector<counts::TallyEntry> sample_entries() {
  chess::Board start, e4 = after({"e2e4"}), d4 = after({"d2d4"});
  std::vector<counts::TallyEntry> entries = {entry(start, "e2e4", 200000), entry(start, "d2d4", 100000),
                                             entry(e4, "e7e5", 50), entry(e4, "c7c5", 40),
                                             entry(d4, "d7d5", 30)};
  counts::TallyEntry orphan;
  orphan.key = 0x1234;
  orphan.move = 0x31c;
  orphan.games = orphan.draws = 10;
  orphan.first_ply = 20;
  entries.push_back(orphan);
  // Black's moves lost every game in this sample: draws keep them from being "only lost".
  for (counts::TallyEntry& e : entries)
    if (e.side_to_move() == chess::kBlack) e.white_wins = 0, e.draws = e.games;
  std::sort(entries.begin(), entries.end(), counts::tally_order);
  return entries;
}

SelectionRules keep_all() {
  SelectionRules r;
  r.min_games = 0;
  r.min_move_games = 1;
  r.max_score_drop = kRuleOff;
  return r;
}

struct Built {
  BuildOutcome outcome;
  std::map<uint64_t, std::map<std::string, uint16_t>> book;  // key -> uci -> weight
};

Built run(const SelectionRules& rules, CandidateTransformer* transformer = nullptr) {
  test::TempDir tmp;
  std::vector<counts::TallyEntry> entries = sample_entries();
  counts::SpanStream<counts::TallyEntry> stream(entries);
  auto writer = PolyglotWriter::create((tmp / "b.bin").string());
  EXPECT_TRUE(writer.ok());
  auto outcome = build_book(stream, rules, transformer, *writer);
  EXPECT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_TRUE(writer->commit().ok());
  Built built{*outcome, {}};
  auto book = PolyglotBook::open((tmp / "b.bin").string());
  EXPECT_TRUE(book.ok());
  for (size_t i = 0; i < book->size(); ++i) {
    PolyglotEntry e = book->entry(i);
    built.book[e.key][polyglot_move_text(e.move)] = e.weight;
  }
  return built;
}

TEST(BookBuilder, ScalesEachPositionOnceAndKeepsOthersExact) {
  Built b = run(keep_all());
  ASSERT_EQ(b.book.size(), 4u);
  EXPECT_EQ(b.book[chess::Board().key()],
            (std::map<std::string, uint16_t>{{"e2e4", 65535}, {"d2d4", 32767}}));
  EXPECT_EQ(b.book[after({"e2e4"}).key()], (std::map<std::string, uint16_t>{{"e7e5", 50}, {"c7c5", 40}}));
  EXPECT_EQ(b.outcome.scaled_positions, 1u);
  EXPECT_EQ(b.outcome.stages.back().name, "written");
  EXPECT_EQ(b.outcome.stages.back().entries, 6u);
}

TEST(BookBuilder, PruneUnreachableDropsWhatTheStartCannotReach) {
  SelectionRules rules = keep_all();
  rules.prune_unreachable = true;
  Built b = run(rules);
  EXPECT_EQ(b.book.size(), 3u);
  EXPECT_EQ(b.book.count(0x1234), 0u);
  EXPECT_EQ(b.outcome.reachable_positions, 3u);
  auto stage = std::find_if(b.outcome.stages.begin(), b.outcome.stages.end(),
                            [](const StageCount& s) { return s.name == "prune_unreachable"; });
  ASSERT_NE(stage, b.outcome.stages.end());
  EXPECT_EQ(stage->positions, 3u);
  EXPECT_EQ(stage->entries, 5u);
}

// A transformer as rescoring would be: looks at boards, drops a move, changes a weight.
class DropC5 : public CandidateTransformer {
 public:
  Status transform(std::span<ReachablePosition> positions) override {
    for (size_t i = 0; i < positions.size(); ++i) {
      ReachablePosition& p = positions[i];
      keys_match &= p.board.key() == p.candidates->key;
      if (i > 0) in_key_order &= positions[i - 1].candidates->key < p.candidates->key;
      depths.push_back(p.depth);
      auto& moves = p.candidates->moves;
      for (Candidate& c : moves)
        if (polyglot_move_text(c.stats.move) == "d7d5") c.weight = 777;
      std::erase_if(moves, [](const Candidate& c) { return polyglot_move_text(c.stats.move) == "c7c5"; });
    }
    return ok_status();
  }
  const char* name() const override { return "rescore"; }
  bool keys_match = true, in_key_order = true;
  std::vector<int> depths;
};

TEST(BookBuilder, TransformerSeesReachablePositionsWithBoards) {
  DropC5 transformer;
  Built b = run(keep_all(), &transformer);
  EXPECT_TRUE(transformer.keys_match);
  EXPECT_TRUE(transformer.in_key_order);
  std::sort(transformer.depths.begin(), transformer.depths.end());
  EXPECT_EQ(transformer.depths, (std::vector<int>{0, 1, 1})) << "the orphan has no board";
  EXPECT_EQ(b.book[after({"e2e4"}).key()], (std::map<std::string, uint16_t>{{"e7e5", 50}}));
  EXPECT_EQ(b.book[after({"d2d4"}).key()], (std::map<std::string, uint16_t>{{"d7d5", 777}}));
  EXPECT_EQ(b.book.count(0x1234), 1u) << "unreachable positions are written as the rules left them";
  EXPECT_EQ(b.outcome.stages[b.outcome.stages.size() - 2].name, "rescore");
}

// The same entries cut into key ranges (as Tally::finish_partitions gives them) make the same book,
// with the same stage counts, whether the rules write it or a walk follows, and whatever the
// number of parts, empty ones included.
TEST(BookBuilder, PartsGiveTheSameBookAsOneStream) {
  std::vector<counts::TallyEntry> entries = sample_entries();
  auto build = [&](std::vector<size_t> cuts, const SelectionRules& rules, DropC5* transformer) {
    test::TempDir tmp;
    std::vector<std::unique_ptr<counts::SpanStream<counts::TallyEntry>>> streams;
    size_t from = 0;
    cuts.push_back(entries.size());
    for (size_t cut : cuts) {
      streams.push_back(std::make_unique<counts::SpanStream<counts::TallyEntry>>(entries.data() + from,
                                                                                 entries.data() + cut));
      from = cut;
    }
    std::vector<counts::EntryStream*> parts;
    for (auto& s : streams) parts.push_back(s.get());
    auto writer = PolyglotWriter::create((tmp / "b.bin").string());
    EXPECT_TRUE(writer.ok());
    auto outcome = build_book(parts, rules, transformer, *writer);
    EXPECT_TRUE(outcome.ok()) << outcome.error().message;
    EXPECT_TRUE(writer->commit().ok());
    std::string stages;
    for (const StageCount& s : outcome->stages)
      stages +=
          std::string(s.name) + " " + std::to_string(s.positions) + " " + std::to_string(s.entries) + "\n";
    return std::make_pair(test::read_file(tmp / "b.bin"), stages);
  };
  SelectionRules all = keep_all();
  SelectionRules pruned = keep_all();
  pruned.prune_unreachable = true;
  SelectionRules few = keep_all();
  few.min_move_games = 45;
  for (const SelectionRules* rules : {&all, &pruned, &few}) {
    for (bool transform : {false, true}) {
      DropC5 t0, t1;
      auto one = build({}, *rules, transform ? &t0 : nullptr);
      ASSERT_GT(one.first.size(), 0u);
      // Cuts between positions (the entries of a key stay in one part), one part left empty.
      std::vector<size_t> boundaries;
      for (size_t i = 1; i < entries.size(); ++i)
        if (entries[i].key != entries[i - 1].key) boundaries.push_back(i);
      ASSERT_GE(boundaries.size(), 3u);
      auto three = build({boundaries[0], boundaries[0], boundaries[2]}, *rules, transform ? &t1 : nullptr);
      EXPECT_TRUE(one.first == three.first) << "transform " << transform;
      EXPECT_EQ(one.second, three.second);
    }
  }
}

class FailingStream : public counts::EntryStream {
 public:
  bool next(counts::TallyEntry&) override { return false; }
  Status status() const override { return Error{"disk on fire"}; }
};

TEST(BookBuilder, StreamErrorsStopTheBuild) {
  test::TempDir tmp;
  FailingStream stream;
  auto writer = PolyglotWriter::create((tmp / "b.bin").string());
  ASSERT_TRUE(writer.ok());
  auto outcome = build_book(stream, keep_all(), nullptr, *writer);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error().message, "disk on fire");
  // A failing later part stops it too.
  std::vector<counts::TallyEntry> entries = sample_entries();
  counts::SpanStream<counts::TallyEntry> fine(entries);
  FailingStream failing;
  counts::EntryStream* parts[] = {&fine, &failing};
  auto writer2 = PolyglotWriter::create((tmp / "c.bin").string());
  ASSERT_TRUE(writer2.ok());
  auto outcome2 = build_book(parts, keep_all(), nullptr, *writer2);
  ASSERT_FALSE(outcome2.ok());
  EXPECT_EQ(outcome2.error().message, "disk on fire");
}

}  // namespace
}  // namespace bookforge::book
