// Engine rescoring of book candidates: a popular blunder is dropped and reported.
#include "book/rescore.h"

#include <gtest/gtest.h>

#include <sstream>

#include "book/polyglot/reader.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "support/test_support.h"

namespace bookforge {
namespace {

// The position after the UCI moves from the start.
chess::Board after_moves(const std::vector<const char*>& line) {
  chess::Board b;
  for (const char* m : line) {
    chess::UndoInfo u;
    b.make_move(chess::uci_to_move(b, m), u);
  }
  return b;
}

// After 1.e4 e5 2.Qh5 Nc6 3.Bc4 Black must cover f7; 3...Nf6?? allows 4.Qxf7#.
const char* const kLine[] = {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4"};

chess::Board after_line() { return after_moves({std::begin(kLine), std::end(kLine)}); }

book::Candidate candidate(const chess::Board& b, const char* uci, uint32_t games, uint64_t weight) {
  book::Candidate c;
  c.stats.key = b.key();
  c.stats.move = chess::move_to_polyglot(chess::uci_to_move(b, uci));
  c.stats.games = games;
  c.stats.draws = games;
  c.stats.first_ply = uint16_t(b.game_ply());
  c.weight = weight;
  return c;
}

// The blunder is the most played move here: 8 games of Nf6, 6 of g6, 4 of Qe7.
book::PositionCandidates blunder_position(const chess::Board& b) {
  book::PositionCandidates p;
  p.key = b.key();
  p.moves = {candidate(b, "g7g6", 6, 600), candidate(b, "g8f6", 8, 800), candidate(b, "d8e7", 4, 400)};
  return p;
}

std::string move_of(const chess::Board& b, const book::Candidate& c) {
  return chess::move_to_uci(chess::polyglot_to_move(b, c.stats.move));
}

book::RescoreOptions depth_options(int depth) {
  book::RescoreOptions o;
  o.depth = depth;
  return o;
}

TEST(Rescore, DropsAndReportsThePopularBlunder) {
  const chess::Board b = after_line();
  book::PositionCandidates cands = blunder_position(b);
  std::vector<book::ReachablePosition> positions{{b, &cands, 5}};
  book::RescoreOptions o = depth_options(6);
  // Wide: at this depth the engine prefers 3...Qf6 to both good candidates by up to 70 cp.
  o.margin_cp = 150;
  o.find_suspicious = true;
  book::Rescorer rescorer(o);
  ASSERT_TRUE(rescorer.transform(positions).ok());

  // Nf6 is gone; g6 and Qe7 stay, with the book's weights (blend 0).
  ASSERT_FALSE(cands.moves.empty());
  for (const book::Candidate& c : cands.moves) {
    EXPECT_NE(move_of(b, c), "g8f6");
    EXPECT_EQ(c.weight, move_of(b, c) == "g7g6" ? 600u : 400u);
  }
  EXPECT_EQ(rescorer.stats().positions, 1u);
  EXPECT_EQ(rescorer.stats().candidates, 3u);
  EXPECT_EQ(rescorer.stats().dropped, 3u - cands.moves.size());

  // Nf6 is reported (other moves may be too, if the engine finds them 100 cp worse than its best).
  const auto& found = rescorer.suspicious();
  const auto nf6 =
      std::find_if(found.begin(), found.end(), [](const book::SuspiciousMove& m) { return m.move == "Nf6"; });
  ASSERT_NE(nf6, found.end());
  for (const book::SuspiciousMove& m : found) {
    EXPECT_GE(m.share, 20.0);
    EXPECT_LE(m.score, m.best_score - 100);
  }
  const book::SuspiciousMove& s = *nf6;
  EXPECT_EQ(s.games, 8u);
  EXPECT_NEAR(s.share, 100.0 * 8 / 18, 0.01);
  EXPECT_EQ(s.fen, b.fen());
  EXPECT_LE(s.score, engine::mated_in(3));  // mated: 4.Qxf7#
  EXPECT_GT(s.best_score, -200);
  EXPECT_NE(s.best_move, "Nf6");

  const std::string csv = book::suspicious_csv(rescorer.suspicious());
  EXPECT_EQ(csv.rfind("fen,move,share,games,score,best_move,best_score\n", 0), 0u);
  EXPECT_NE(csv.find("," + s.best_move + ","), std::string::npos);
  EXPECT_NE(csv.find(",Nf6,44.4,8,#-1,"), std::string::npos) << csv;
}

// The moves that defend f7 after 1.e4 e5 2.Qh5 Nc6 3.Bc4 (any other loses to 4.Qxf7#).
bool defends_f7(const std::string& uci) {
  return uci == "g7g6" || uci == "d8e7" || uci == "d8f6" || uci == "g8h6";
}

TEST(Rescore, AnOnlyMoveThatBlundersIsDropped) {
  // The rules kept 3...Nf6?? alone: with nothing to compare it with among the candidates, the
  // engine's own best move is the measure.
  const chess::Board b = after_line();
  book::PositionCandidates cands;
  cands.key = b.key();
  cands.moves = {candidate(b, "g8f6", 8, 800)};
  std::vector<book::ReachablePosition> positions{{b, &cands, 5}};
  book::Rescorer rescorer(depth_options(6));
  ASSERT_TRUE(rescorer.transform(positions).ok());
  EXPECT_TRUE(cands.moves.empty());
  EXPECT_EQ(rescorer.stats().positions, 1u);
  EXPECT_EQ(rescorer.stats().dropped, 1u);
  EXPECT_EQ(rescorer.stats().emptied, 1u);
  EXPECT_EQ(rescorer.stats().repaired, 0u);
  EXPECT_TRUE(rescorer.repaired().empty());
}

// Two candidates that both lose to 4.Qxf7#: within 0 cp of each other, so a margin from the
// best candidate kept both.
book::PositionCandidates two_losing_candidates(const chess::Board& b) {
  book::PositionCandidates p;
  p.key = b.key();
  p.moves = {candidate(b, "d7d6", 5, 500), candidate(b, "g8f6", 8, 800)};
  return p;
}

TEST(Rescore, TheMarginIsMeasuredFromTheEnginesBestMoveNotOnlyFromTheCandidates) {
  const chess::Board b = after_line();
  book::PositionCandidates cands = two_losing_candidates(b);
  std::vector<book::ReachablePosition> positions{{b, &cands, 5}};
  book::Rescorer rescorer(depth_options(6));
  ASSERT_TRUE(rescorer.transform(positions).ok());
  EXPECT_TRUE(cands.moves.empty());
  EXPECT_EQ(rescorer.stats().dropped, 2u);
}

TEST(Rescore, RepairPutsTheEnginesBestMoveWhereEveryCandidateWasDropped) {
  const chess::Board b = after_line();
  book::PositionCandidates cands = two_losing_candidates(b);
  std::vector<book::ReachablePosition> positions{{b, &cands, 5}};
  book::RescoreOptions o = depth_options(6);
  o.repair = true;
  book::Rescorer rescorer(o);
  ASSERT_TRUE(rescorer.transform(positions).ok());
  ASSERT_EQ(cands.moves.size(), 1u);
  const std::string added = move_of(b, cands.moves[0]);
  EXPECT_TRUE(defends_f7(added)) << added;
  EXPECT_EQ(cands.moves[0].weight, 800u);  // the heaviest dropped move's
  EXPECT_EQ(cands.moves[0].stats.key, b.key());
  EXPECT_EQ(rescorer.stats().repaired, 1u);
  ASSERT_EQ(rescorer.repaired().size(), 1u);
  const book::RepairedPosition& r = rescorer.repaired()[0];
  EXPECT_EQ(r.fen, b.fen());
  EXPECT_EQ(r.move, chess::move_to_san(b, chess::uci_to_move(b, added)));
  EXPECT_EQ(r.weight, 800u);
  EXPECT_GT(r.score, -200);

  // A position with a candidate within the margin is not repaired: its own moves stay.
  book::PositionCandidates fine = blunder_position(b);
  std::vector<book::ReachablePosition> again{{b, &fine, 5}};
  o.margin_cp = 150;  // g6 and Qe7 are within it of the engine's best at this depth
  book::Rescorer second(o);
  ASSERT_TRUE(second.transform(again).ok());
  EXPECT_EQ(second.stats().repaired, 0u);
  for (const book::Candidate& c : fine.moves) EXPECT_TRUE(defends_f7(move_of(b, c)));
}

TEST(Rescore, ListingSuspiciousMovesLeavesTheCandidatesAsTheyWere) {
  const chess::Board b = after_line();
  book::PositionCandidates plain = blunder_position(b), listed = blunder_position(b);
  std::vector<book::ReachablePosition> a{{b, &plain, 5}}, c{{b, &listed, 5}};
  book::RescoreOptions o = depth_options(7);
  o.margin_cp = 400;  // so that the scores, not only the blunder, decide what stays
  o.blend = 1;        // and the weights show every score
  ASSERT_TRUE(book::Rescorer(o).transform(a).ok());
  o.find_suspicious = true;
  ASSERT_TRUE(book::Rescorer(o).transform(c).ok());
  ASSERT_EQ(plain.moves.size(), listed.moves.size());
  for (size_t i = 0; i < plain.moves.size(); ++i) {
    EXPECT_EQ(plain.moves[i].stats.move, listed.moves[i].stats.move);
    EXPECT_EQ(plain.moves[i].weight, listed.moves[i].weight);
  }
}

TEST(Rescore, BlendOneTakesTheWeightsFromTheEngineOnly) {
  // With blend 1 the book's weights only fix the total: two books with the same total but
  // different weights come out the same.
  auto blended = [](uint64_t w1, uint64_t w2, uint64_t w3) {
    const chess::Board b = after_line();
    book::PositionCandidates cands;
    cands.key = b.key();
    cands.moves = {candidate(b, "g7g6", 6, w1), candidate(b, "d8e7", 4, w2), candidate(b, "d8f6", 4, w3)};
    std::vector<book::ReachablePosition> positions{{b, &cands, 5}};
    book::RescoreOptions o = depth_options(6);
    o.blend = 1;
    o.margin_cp = 400;
    book::Rescorer rescorer(o);
    EXPECT_TRUE(rescorer.transform(positions).ok());
    std::vector<uint64_t> weights;
    for (const book::Candidate& c : cands.moves) weights.push_back(c.weight);
    return weights;
  };
  const std::vector<uint64_t> a = blended(600, 300, 300), c = blended(100, 100, 1000);
  ASSERT_EQ(a.size(), c.size());
  uint64_t total = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(double(a[i]), double(c[i]), 1.0) << i;
    total += a[i];
  }
  if (a.size() == 3) {
    EXPECT_NEAR(double(total), 1200.0, 2.0);
  }
}

TEST(Rescore, EnginePreferenceHalvesPerMargin) {
  EXPECT_DOUBLE_EQ(book::engine_preference(0, 50), 1.0);
  EXPECT_DOUBLE_EQ(book::engine_preference(50, 50), 0.5);
  EXPECT_DOUBLE_EQ(book::engine_preference(100, 50), 0.25);
  EXPECT_DOUBLE_EQ(book::engine_preference(10, 0), 0.0);
}

TEST(Rescore, OptionsAreValidated) {
  book::RescoreOptions o;
  EXPECT_FALSE(o.validate().ok());  // neither depth nor nodes
  o.depth = 4;
  EXPECT_TRUE(o.validate().ok());
  o.nodes = 100;
  EXPECT_FALSE(o.validate().ok());  // both
  o.nodes = 0;
  o.blend = 1.5;
  EXPECT_FALSE(o.validate().ok());
}

// ---- Moves proven by their games ------------------------------------------------------------

// After 1.e4 e5, 2.f4 (the King's Gambit) loses a pawn for play that a depth-6 search with the
// hand-written evaluation does not see: it puts 2.f4 about 110 cp below 2.Nf3, well beyond a
// 50 cp margin. (The network sees the play, and keeps 2.f4 within the margin.)
chess::Board after_e4_e5() { return after_moves({"e2e4", "e7e5"}); }

// `nf3` drawn games of 2.Nf3 (none: no such candidate) and `f4` games of 2.f4 with White's
// results as given (the rest draws).
book::PositionCandidates gambit_position(const chess::Board& b, uint32_t nf3, uint32_t f4, uint32_t wins,
                                         uint32_t losses) {
  book::PositionCandidates p;
  p.key = b.key();
  if (nf3) p.moves.push_back(candidate(b, "g1f3", nf3, nf3));
  book::Candidate gambit = candidate(b, "f2f4", f4, f4);
  gambit.stats.white_wins = wins;
  gambit.stats.black_wins = losses;
  gambit.stats.draws = f4 - wins - losses;
  p.moves.push_back(gambit);
  return p;
}

bool keeps(const chess::Board& b, const book::PositionCandidates& p, const char* uci) {
  return std::any_of(p.moves.begin(), p.moves.end(),
                     [&](const book::Candidate& c) { return move_of(b, c) == uci; });
}

TEST(RescoreProven, TheMarginIsWorthItsExpectedScore) {
  // 50 cp is worth 4.59 points in 100 on the curve, 25 cp 2.30.
  EXPECT_NEAR(book::expected_score(50), 0.5459, 0.0001);
  EXPECT_NEAR(book::expected_score(25), 0.5230, 0.0001);
  EXPECT_DOUBLE_EQ(book::expected_score(0), 0.5);
  EXPECT_NEAR(book::expected_score(-50), 1 - book::expected_score(50), 1e-12);
}

TEST(RescoreProven, AMoveProvenByItsGamesIsKeptWhateverTheEngineSays) {
  const chess::Board b = after_e4_e5();
  auto rescore = [&](book::PositionCandidates& p, bool proven) {
    std::vector<book::ReachablePosition> positions{{b, &p, 2}};
    book::RescoreOptions o = depth_options(6);
    o.classical_eval = true;
    o.proven = proven;
    book::Rescorer rescorer(o);
    EXPECT_TRUE(rescorer.transform(positions).ok());
    return rescorer.stats();
  };
  struct Case {
    const char* what;
    uint32_t nf3, f4, wins, losses;
    bool proven;
  };
  const Case cases[] = {
      // Two standard errors, sqrt(1/1000 + 1/1200) = 4.3 points, within the margin's 4.6.
      {"1,000 games scoring as the other move's 1,200", 1200, 1000, 300, 300, true},
      // sqrt(1/600 + 1/1200) = 5 points: too few games to measure a 50 cp difference.
      {"600 games against 1,200", 1200, 600, 180, 180, false},
      // Compared with nothing (one player's repertoire proves nothing about the move).
      {"the only move played, in 5,000 games", 0, 5000, 1500, 1500, false},
      // 40% against 50%: more than the margin's 4.6 points below; the games confirm the engine.
      {"enough games that score 10 points less", 1200, 1000, 100, 300, false},
      // A main line against a rare alternative: 5 - 8.3 = -3.3 points.
      {"5,000 games scoring 55% against 150 scoring 50%", 150, 5000, 1500, 1000, true},
      // -8.3 points.
      {"5,000 games scoring 50% against 150", 150, 5000, 1500, 1500, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    book::PositionCandidates p = gambit_position(b, c.nf3, c.f4, c.wins, c.losses);
    EXPECT_EQ(rescore(p, true).proven_kept, c.proven ? 1u : 0u);
    EXPECT_EQ(keeps(b, p, "f2f4"), c.proven);
    if (c.nf3) {
      EXPECT_TRUE(keeps(b, p, "g1f3"));
    }
  }
  // The first case with the engine alone deciding: dropped.
  book::PositionCandidates engine_alone = gambit_position(b, 1200, 1000, 300, 300);
  const book::RescoreStats off = rescore(engine_alone, false);
  EXPECT_EQ(off.proven_kept, 0u);
  EXPECT_EQ(off.dropped, 1u);
  EXPECT_FALSE(keeps(b, engine_alone, "f2f4"));
}

// ---- Propagation, with a scripted engine whose every score the test sets ---------------------

// A UCI engine in a shell script that answers from a table: one line per position and move,
// "FEN|move score" (score in centipawns from the side to move's view), best first. A search of
// all moves reports the position's first line; a search of some moves reports their lines in
// the table's order. So the test decides what "the engine" thinks of every move everywhere.
std::string scripted_engine(const test::TempDir& dir, const std::string& table) {
  test::write_file(dir / "table.txt", table);
  const std::filesystem::path script = dir / "scripted_engine.sh";
  test::write_file(
      script,
      "#!/bin/sh\n"
      "set -f\n"
      "table=\"" +
          (dir / "table.txt").string() +
          "\"\n"
          "while IFS= read -r line; do\n"
          "  set -- $line\n"
          "  case \"$1\" in\n"
          "    uci) echo 'id name Scripted'; echo uciok ;;\n"
          "    isready) echo readyok ;;\n"
          "    position) shift 2; fen=\"$*\" ;;\n"
          "    go) moves=' '; take=0\n"
          "        for w in \"$@\"; do [ $take = 1 ] && moves=\"$moves$w \"; [ \"$w\" = searchmoves ] && "
          "take=1; done\n"
          "        awk -F'|' -v fen=\"$fen\" -v moves=\"$moves\" '$1 == fen {\n"
          "          split($2, f, \" \")\n"
          "          if (moves != \" \" && index(moves, \" \" f[1] \" \") == 0) next\n"
          "          if (best == \"\") best = f[1]\n"
          "          printf \"info depth 1 multipv %d score cp %d nodes 1 pv %s\\n\", ++k, f[2], f[1]\n"
          "          if (moves == \" \") exit\n"
          "        } END { print \"bestmove \" best }' \"$table\" ;;\n"
          "    quit) exit 0 ;;\n"
          "  esac\n"
          "done\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

// The Blackburne Shilling trap as a small book: 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 and then
// 4.Nxe5 or 4.O-O; after 4.Nxe5 the book's reply is 4...Qg5, after which its only move is
// 5.Nxf7?? (5...Qxg2 wins). Each position as the engine sees it at its own depth: 4.Nxe5
// looks best (+60) and 4...Qg5 looks harmless (-50 for Black), but one move further on White
// is lost whatever it plays (5.Bxf7+ -150 at best, 5.Nxf7 -900).
struct TrapBook {
  std::vector<chess::Board> boards;
  std::vector<book::PositionCandidates> cands;
  std::string table;

  void add(const std::vector<const char*>& line, const std::vector<std::pair<const char*, uint64_t>>& moves,
           const std::vector<std::pair<const char*, int>>& engine) {
    const chess::Board b = after_moves(line);
    book::PositionCandidates p;
    p.key = b.key();
    for (const auto& [uci, weight] : moves) p.moves.push_back(candidate(b, uci, uint32_t(weight), weight));
    std::sort(p.moves.begin(), p.moves.end(),
              [](const book::Candidate& a, const book::Candidate& c) { return a.stats.move < c.stats.move; });
    boards.push_back(b);
    cands.push_back(p);
    for (const auto& [uci, cp] : engine) table += b.fen() + "|" + uci + " " + std::to_string(cp) + "\n";
  }

  std::vector<book::ReachablePosition> positions() {
    std::vector<book::ReachablePosition> out;
    for (size_t i = 0; i < boards.size(); ++i) out.push_back({boards[i], &cands[i], boards[i].game_ply()});
    std::sort(out.begin(), out.end(), [](const book::ReachablePosition& a, const book::ReachablePosition& b) {
      return a.candidates->key < b.candidates->key;
    });
    return out;
  }
};

TrapBook trap_book() {
  const std::vector<const char*> start = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"};
  std::vector<const char*> after_nxe5 = start, after_qg5 = start;
  after_nxe5.push_back("f3e5");
  after_qg5.insert(after_qg5.end(), {"f3e5", "d8g5"});
  TrapBook t;
  t.add(start, {{"f3e5", 70}, {"e1g1", 30}}, {{"f3e5", 60}, {"e1g1", 40}});
  t.add(after_nxe5, {{"d8g5", 50}}, {{"d8g5", -50}});
  t.add(after_qg5, {{"e5f7", 20}}, {{"c4f7", -150}, {"e5f7", -900}});
  return t;
}

std::vector<std::string> moves_of(const chess::Board& b, const book::PositionCandidates& p) {
  std::vector<std::string> out;
  for (const book::Candidate& c : p.moves) out.push_back(move_of(b, c));
  return out;
}

book::RescoreOptions scripted_options(const std::string& engine, bool propagate) {
  book::RescoreOptions o;
  o.depth = 1;
  o.engine_path = engine;
  o.propagate = propagate;
  return o;
}

TEST(RescorePropagation, AMoveWhoseBookLineGoesWrongLaterIsDropped) {
  test::TempDir dir;
  TrapBook plain = trap_book(), propagated = trap_book();
  const std::string engine = scripted_engine(dir, plain.table);

  // Each position on its own: only 5.Nxf7?? goes, and 4.Nxe5 stays the book's main move.
  std::vector<book::ReachablePosition> a = plain.positions();
  book::Rescorer own(scripted_options(engine, false));
  ASSERT_TRUE(own.transform(a).ok());
  EXPECT_EQ(moves_of(plain.boards[0], plain.cands[0]), (std::vector<std::string>{"e1g1", "f3e5"}));
  EXPECT_TRUE(plain.cands[2].moves.empty());
  EXPECT_EQ(own.stats().dropped, 1u);

  // Propagated: 5.Nxf7 goes, the position after 4...Qg5 is an exit worth -150 for White, so
  // 4...Qg5 is worth +150 for Black and 4.Nxe5 -150 for White: 190 cp below 4.O-O, dropped.
  std::vector<book::ReachablePosition> b = propagated.positions();
  book::Rescorer backed_up(scripted_options(engine, true));
  ASSERT_TRUE(backed_up.transform(b).ok());
  EXPECT_EQ(moves_of(propagated.boards[0], propagated.cands[0]), (std::vector<std::string>{"e1g1"}));
  EXPECT_EQ(moves_of(propagated.boards[1], propagated.cands[1]), (std::vector<std::string>{"d8g5"}));
  EXPECT_TRUE(propagated.cands[2].moves.empty());
  EXPECT_EQ(backed_up.stats().dropped, 2u);
  EXPECT_EQ(backed_up.stats().propagated_drops, 1u);
  EXPECT_GE(backed_up.stats().propagation_rounds, 2);
}

TEST(RescorePropagation, AnOpponentsBookBlunderDoesNotMakeAMoveLookGood) {
  // 4.Nxe5 looks playable on its own (+20, within the margin of 4.O-O's +40). The book's only
  // reply, 4...Qe7, looks fine on its own too (+190 for Black, near 4...Qg5's +200) but loses to
  // 5.Bxf7+ (+400 for White). A negamax over the book's moves alone would value 4.Nxe5 at +400,
  // keep it and drop 4.O-O; but Black can play the engine's best, 4...Qg5, so 4.Nxe5 is worth
  // -200: it goes, and 4.O-O stays.
  test::TempDir dir;
  const std::vector<const char*> start = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"};
  std::vector<const char*> after_nxe5 = start, after_qe7 = start;
  after_nxe5.push_back("f3e5");
  after_qe7.insert(after_qe7.end(), {"f3e5", "d8e7"});
  TrapBook t;
  t.add(start, {{"f3e5", 70}, {"e1g1", 30}}, {{"e1g1", 40}, {"f3e5", 20}});
  t.add(after_nxe5, {{"d8e7", 50}}, {{"d8g5", 200}, {"d8e7", 190}});
  t.add(after_qe7, {{"c4f7", 50}}, {{"c4f7", 400}});
  const std::string engine = scripted_engine(dir, t.table);
  std::vector<book::ReachablePosition> positions = t.positions();
  book::Rescorer rescorer(scripted_options(engine, true));
  ASSERT_TRUE(rescorer.transform(positions).ok());
  EXPECT_EQ(moves_of(t.boards[0], t.cands[0]), (std::vector<std::string>{"e1g1"}));
  EXPECT_TRUE(t.cands[1].moves.empty());  // 4...Qe7 is worth -400 against 4...Qg5's +200
  EXPECT_EQ(moves_of(t.boards[2], t.cands[2]), (std::vector<std::string>{"c4f7"}));
  EXPECT_EQ(rescorer.stats().propagated_drops, 2u);
}

TEST(RescorePropagation, AMoveItsOwnSearchDropsStaysDropped) {
  // 4.Nxe5 is 140 cp behind 4.O-O in its own search, but the search after it likes White's game
  // (+300). Values backed up from the next position lean towards the mover, so they only add
  // drops: 4.Nxe5 stays out, and 4.O-O is not measured against the +300.
  test::TempDir dir;
  const std::vector<const char*> start = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"};
  std::vector<const char*> after_nxe5 = start;
  after_nxe5.push_back("f3e5");
  TrapBook t;
  t.add(start, {{"f3e5", 70}, {"e1g1", 30}}, {{"e1g1", 40}, {"f3e5", -100}});
  t.add(after_nxe5, {{"d8g5", 50}}, {{"d8g5", -300}});
  const std::string engine = scripted_engine(dir, t.table);
  std::vector<book::ReachablePosition> positions = t.positions();
  book::Rescorer rescorer(scripted_options(engine, true));
  ASSERT_TRUE(rescorer.transform(positions).ok());
  EXPECT_EQ(moves_of(t.boards[0], t.cands[0]), (std::vector<std::string>{"e1g1"}));
  EXPECT_EQ(rescorer.stats().propagated_drops, 0u);
}

TEST(RescorePropagation, ARepetitionInTheBookEnds) {
  // 1.Nf3 Nf6 2.Ng1 Ng8 is the start position again: the book is a cycle. Every move is the
  // engine's best where it stands, so nothing is dropped, and the pass ends.
  test::TempDir dir;
  TrapBook t;
  t.add({}, {{"g1f3", 10}}, {{"g1f3", 20}});
  t.add({"g1f3"}, {{"g8f6", 10}}, {{"g8f6", -20}});
  t.add({"g1f3", "g8f6"}, {{"f3g1", 10}}, {{"f3g1", 10}});
  t.add({"g1f3", "g8f6", "f3g1"}, {{"f6g8", 10}}, {{"f6g8", -10}});
  ASSERT_EQ(t.boards[0].key(), after_moves({"g1f3", "g8f6", "f3g1", "f6g8"}).key());
  const std::string engine = scripted_engine(dir, t.table);
  std::vector<book::ReachablePosition> positions = t.positions();
  book::Rescorer rescorer(scripted_options(engine, true));
  ASSERT_TRUE(rescorer.transform(positions).ok());
  EXPECT_EQ(rescorer.stats().dropped, 0u);
  EXPECT_EQ(rescorer.stats().positions, 4u);
  EXPECT_EQ(rescorer.stats().propagation_rounds, 1);
}

// A handful of opening positions with two or three candidates each.
struct Sample {
  std::vector<chess::Board> boards;
  std::vector<book::PositionCandidates> cands;
};

Sample sample_positions() {
  Sample s;
  const std::vector<std::vector<const char*>> lines = {
      {}, {"e2e4"}, {"e2e4", "e7e5"}, {"d2d4"}, {"d2d4", "d7d5"}, {"e2e4", "c7c5"}, {"g1f3"}};
  const std::vector<const char*> replies[] = {
      {"e2e4", "d2d4", "g1f3"}, {"e7e5", "c7c5", "e7e6"}, {"g1f3", "f1c4", "d1h5"}, {"d7d5", "g8f6", "f7f5"},
      {"c2c4", "c1f4", "e2e4"}, {"g1f3", "b1c3"},         {"d7d5", "g8f6", "g7g5"}};
  for (size_t i = 0; i < lines.size(); ++i) {
    chess::Board b;
    for (const char* m : lines[i]) {
      chess::UndoInfo u;
      b.make_move(chess::uci_to_move(b, m), u);
    }
    book::PositionCandidates p;
    p.key = b.key();
    uint32_t games = 10;
    for (const char* m : replies[i]) p.moves.push_back(candidate(b, m, games, games * 7)), games += 5;
    s.boards.push_back(b);
    s.cands.push_back(p);
  }
  return s;
}

TEST(Rescore, SameResultWithAnyNumberOfThreads) {
  auto run = [](int threads, bool propagate) {
    Sample s = sample_positions();
    std::vector<book::ReachablePosition> positions;
    for (size_t i = 0; i < s.boards.size(); ++i) positions.push_back({s.boards[i], &s.cands[i], 0});
    book::RescoreOptions o;
    o.nodes = 3000;
    o.blend = 0.5;
    o.margin_cp = 30;
    o.threads = threads;
    o.propagate = propagate;
    o.find_suspicious = true;
    o.suspicious_share = 0;
    o.suspicious_margin_cp = 20;
    book::Rescorer rescorer(o);
    EXPECT_TRUE(rescorer.transform(positions).ok());
    std::ostringstream out;
    for (const book::PositionCandidates& p : s.cands)
      for (const book::Candidate& c : p.moves) out << p.key << ' ' << c.stats.move << ' ' << c.weight << '\n';
    out << book::suspicious_csv(rescorer.suspicious());
    return out.str();
  };
  for (bool propagate : {false, true}) {
    const std::string one = run(1, propagate);
    EXPECT_EQ(one, run(3, propagate));
    EXPECT_EQ(one, run(1, propagate));
  }
}

// End to end: PGN games in which the blunder is the most played move, built into a book.
std::string blunder_games() {
  std::string pgn;
  // Each game has its own White: the same game twice would be counted once.
  auto game = [&](const std::string& moves) {
    pgn += "[Event \"t\"]\n[White \"a" + std::to_string(pgn.size()) +
           "\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n" + moves + " 1/2-1/2\n\n";
  };
  for (int i = 0; i < 8; ++i) game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qe2 Bc5");
  for (int i = 0; i < 6; ++i) game("1. e4 e5 2. Qh5 Nc6 3. Bc4 g6 4. Qf3 Nf6");
  for (int i = 0; i < 4; ++i) game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Qe7 4. Nf3 Nf6");
  return pgn;
}

std::vector<std::string> book_moves(const std::filesystem::path& book, const chess::Board& b) {
  std::vector<std::string> moves;
  Result<book::PolyglotBook> opened = book::PolyglotBook::open(book.string());
  EXPECT_TRUE(opened.ok());
  if (!opened.ok()) return moves;
  for (const book::PolyglotEntry& e : opened->find(b.key()))
    moves.push_back(chess::move_to_uci(chess::polyglot_to_move(b, e.move)));
  return moves;
}

TEST(RescoreBuild, BlunderIsDroppedFromTheBookAndListed) {
  test::TempDir dir;
  test::write_file(dir / "games.pgn", blunder_games());
  const std::vector<std::string> base = {
      "build", (dir / "games.pgn").string(), "--min-games", "1", "--min-move-games", "1", "--max-ply", "8",
      "-q"};
  auto args = base;
  args.insert(args.end(), {"-o", (dir / "plain.bin").string()});
  ASSERT_EQ(test::run_bookforge(args).exit_code, 0);
  const chess::Board b = after_line();
  auto plain = book_moves(dir / "plain.bin", b);
  EXPECT_NE(std::find(plain.begin(), plain.end(), "g8f6"), plain.end());  // the rules keep it

  args = base;
  args.insert(args.end(), {"-o", (dir / "rescored.bin").string(), "--rescore-depth", "5", "--suspicious",
                           (dir / "suspicious.csv").string(), "--threads", "2"});
  const auto r = test::run_bookforge(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rescored = book_moves(dir / "rescored.bin", b);
  EXPECT_EQ(std::find(rescored.begin(), rescored.end(), "g8f6"), rescored.end());
  EXPECT_FALSE(rescored.empty());  // g6 or Qe7 (or both) remain
  const std::string csv = test::read_file(dir / "suspicious.csv");
  EXPECT_NE(csv.find(b.fen() + ",Nf6,44.4,8,#-1,"), std::string::npos) << csv;

  // The same with one thread: the same book, byte for byte.
  args = base;
  args.insert(args.end(), {"-o", (dir / "one.bin").string(), "--rescore-depth", "5", "--suspicious",
                           (dir / "suspicious_one.csv").string(), "--threads", "1"});
  ASSERT_EQ(test::run_bookforge(args).exit_code, 0);
  EXPECT_EQ(test::read_file(dir / "one.bin"), test::read_file(dir / "rescored.bin"));
  EXPECT_EQ(test::read_file(dir / "suspicious_one.csv"), csv);
}

TEST(RescoreBuild, SuspiciousOnlyReportsItNeverChangesTheBook) {
  // The sample games give a few hundred book positions: enough for the search of all moves that
  // --suspicious used to add first to change some candidates' scores, and so the book.
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  const std::vector<std::string> base = {"build", games, "--max-ply", "12", "--rescore-depth", "5", "-q"};
  auto plain = base;
  plain.insert(plain.end(), {"-o", (dir / "plain.bin").string()});
  auto listed = base;
  listed.insert(listed.end(),
                {"-o", (dir / "listed.bin").string(), "--suspicious", (dir / "s.csv").string()});
  ASSERT_EQ(test::run_bookforge(plain).exit_code, 0);
  ASSERT_EQ(test::run_bookforge(listed).exit_code, 0);
  EXPECT_EQ(test::read_file(dir / "plain.bin"), test::read_file(dir / "listed.bin"));
}

TEST(RescoreBuild, RepairIsListedInTheReport) {
  test::TempDir dir;
  test::write_file(dir / "games.pgn", blunder_games());
  const auto r = test::run_bookforge({"build", (dir / "games.pgn").string(), "-o", (dir / "b.bin").string(),
                                      "--min-games", "1", "--min-move-games", "1", "--max-ply", "8", "-q",
                                      "--rescore-depth", "5", "--rescore-repair", "--report",
                                      (dir / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string report = test::read_file(dir / "r.json");
  // The report's rescore object, whatever its spacing: its positions and its repairs.
  const size_t rescore = report.find("\"rescore\": {");
  ASSERT_NE(rescore, std::string::npos) << report;
  EXPECT_NE(report.find("\"positions\":", rescore), std::string::npos) << report;
  EXPECT_NE(report.find("\"repaired\": [", rescore), std::string::npos) << report;
  // Without rescoring the report says so.
  const auto plain = test::run_bookforge({"build", (dir / "games.pgn").string(), "-o",
                                          (dir / "p.bin").string(), "--min-games", "1", "--min-move-games",
                                          "1", "-q", "--report", (dir / "p.json").string()});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(test::read_file(dir / "p.json").find("\"rescore\": null"), std::string::npos);
  // --rescore-repair alone is a usage error.
  const auto alone = test::run_bookforge(
      {"build", (dir / "games.pgn").string(), "-o", (dir / "x.bin").string(), "--rescore-repair"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--rescore-repair"), std::string::npos) << alone.err;
}

TEST(RescoreBuild, PropagationGivesTheSameBookForAnyThreadCount) {
  test::TempDir dir;
  const std::string games = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
  auto build = [&](const std::string& name, const char* threads) {
    return test::run_bookforge({"build", games, "--max-ply", "12", "--rescore-depth", "4",
                                "--rescore-propagate", "--threads", threads, "-o", (dir / name).string(),
                                "--report", (dir / (name + ".json")).string()});
  };
  const auto one = build("one.bin", "1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("; propagation: "), std::string::npos) << one.out;
  // The report says what propagation did, as the summary line does.
  const std::string report = test::read_file(dir / "one.bin.json");
  const size_t drops = one.out.find("; propagation: ") + std::string("; propagation: ").size();
  const std::string dropped = one.out.substr(drops, one.out.find(' ', drops) - drops);
  EXPECT_NE(report.find("\"propagated_drops\": " + dropped + ","), std::string::npos) << report;
  EXPECT_NE(report.find("\"propagation_rounds\": "), std::string::npos) << report;
  ASSERT_EQ(build("two.bin", "2").exit_code, 0);
  EXPECT_EQ(test::read_file(dir / "one.bin"), test::read_file(dir / "two.bin"));

  // Without a depth or node limit it is a usage error.
  const auto alone =
      test::run_bookforge({"build", games, "-o", (dir / "x.bin").string(), "--rescore-propagate"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--rescore-propagate"), std::string::npos) << alone.err;
}

// Games of 1.e4 e5 2.f4 and 2.Nf3 in equal numbers and with equal results: with 1,000 each, the
// gambit is proven and stays in the book; a depth-6 search alone with the hand-written evaluation
// drops it (whether the network does depends on its training: the network of 9.5 M positions
// keeps it).
TEST(RescoreBuild, ProvenMovesStayAndAreCounted) {
  test::TempDir dir;
  std::string pgn;
  for (int i = 0; i < 2000; ++i)
    pgn += "[White \"w" + std::to_string(i) + "\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. " +
           (i % 2 ? "f4" : "Nf3") + " 1/2-1/2\n\n";
  test::write_file(dir / "games.pgn", pgn);
  auto build = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"build",
                                     (dir / "games.pgn").string(),
                                     "-o",
                                     (dir / name).string(),
                                     "--max-ply",
                                     "4",
                                     "--rescore-depth",
                                     "6",
                                     "--rescore-eval",
                                     "classical",
                                     "--report",
                                     (dir / (name + ".json")).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_bookforge(args);
  };
  const chess::Board b = after_e4_e5();
  const auto proven = build("proven.bin", {});
  ASSERT_EQ(proven.exit_code, 0) << proven.err;
  EXPECT_NE(proven.out.find(", 1 kept as proven by their games,"), std::string::npos) << proven.out;
  EXPECT_NE(test::read_file(dir / "proven.bin.json").find("\"proven_kept\": 1,"), std::string::npos);
  auto moves = book_moves(dir / "proven.bin", b);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "f2f4"), moves.end());
  const auto engine_alone = build("engine.bin", {"--rescore-engine-alone"});
  ASSERT_EQ(engine_alone.exit_code, 0) << engine_alone.err;
  moves = book_moves(dir / "engine.bin", b);
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "f2f4"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "g1f3"), moves.end());

  // Without a depth or node limit it is a usage error.
  const auto alone = test::run_bookforge(
      {"build", (dir / "games.pgn").string(), "-o", (dir / "x.bin").string(), "--rescore-engine-alone"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--rescore-engine-alone"), std::string::npos) << alone.err;
}

TEST(RescoreBuild, FlagsNeedADepthOrNodes) {
  test::TempDir dir;
  test::write_file(dir / "games.pgn", blunder_games());
  const auto r = test::run_bookforge({"build", (dir / "games.pgn").string(), "-o", (dir / "b.bin").string(),
                                      "--suspicious", (dir / "s.csv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rescore-depth"), std::string::npos) << r.err;
}

TEST(RescoreBuild, ExternalEngine) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no stockfish";
  test::TempDir dir;
  test::write_file(dir / "games.pgn", blunder_games());
  const auto r = test::run_bookforge({"build", (dir / "games.pgn").string(), "-o", (dir / "sf.bin").string(),
                                      "--min-games", "1", "--min-move-games", "1", "--max-ply", "8", "-q",
                                      "--rescore-depth", "8", "--rescore-engine", "/usr/games/stockfish",
                                      "--suspicious", (dir / "sf.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const chess::Board b = after_line();
  auto moves = book_moves(dir / "sf.bin", b);
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "g8f6"), moves.end());
  EXPECT_FALSE(moves.empty());
  EXPECT_NE(test::read_file(dir / "sf.csv").find(",Nf6,44.4,8,#-1,"), std::string::npos);
}

}  // namespace
}  // namespace bookforge
