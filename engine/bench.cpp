#include "engine/bench.h"

#include <array>
#include <string>

#include "chess/board.h"
#include "engine/search.h"

namespace bookforge::engine {
namespace {

// The start position and positions sampled from the games of data-samples/twic0920-2000.pgn
// (every 6967th position).
constexpr std::array<std::string_view, 24> kBenchPositions = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/3b4/1P2k3/R6p/2N5/1K6/8/2r5 b - - 0 1",
    "rnbqkbnr/pp3ppp/4p3/2ppP3/3P4/2P5/PP3PPP/RNBQKBNR b KQkq - 0 1",
    "r2qnrk1/1p1nb1pp/2p1bp2/p3p3/2P1P3/1PN2NPP/P3QPB1/R1BR2K1 b - - 0 1",
    "8/p7/2p2rkp/1pp4n/4Pp2/3PK1PR/PPP1N3/8 w - - 0 1",
    "rq2k2r/pp1n1ppp/2pbp3/3p4/2PPn3/1P3NP1/PB2PPBP/R2Q1RK1 w kq - 0 1",
    "8/pppbkp1p/6p1/2pP4/8/3BKP2/PPP3PP/8 w - - 0 1",
    "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
    "3r2k1/pp4b1/2qN1r1p/n1p5/2P1PB2/3Q2P1/PP3P2/R2R2K1 b - e3 0 1",
    "2rq1rk1/3nbppp/b4n2/p2Pp3/2Pp4/6P1/PBQN1PBP/R1N1R1K1 b - - 0 1",
    "5r2/2k4p/B3R3/6b1/1p4PP/4p3/PPP5/1K6 b - - 0 1",
    "8/6kp/1q1pQpp1/3Pp3/3pP3/3P2P1/r4PKP/8 w - - 0 1",
    "r1bk3r/pp3p1p/5q2/1BPp2p1/3P4/6P1/P2N1PP1/Q4RK1 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
    "r2qk2r/1bpnppbp/3p1np1/p2P4/Pp2P3/2PBBN2/NP3PPP/R2Q1RK1 b kq - 0 1",
    "5bk1/1p1b1r2/3P1npp/q7/p7/P1N1Q2P/1P3PP1/3RR1K1 b - - 0 1",
    "3r2k1/2q2p1p/2b5/2P3n1/4P3/4QPPP/2R3K1/8 w - - 0 1",
    "8/3k1K2/8/8/4n3/4r3/8/3R4 b - - 0 1",
    "r4rk1/4n2p/2p2p2/1p2p2b/4P3/pP3PP1/P1RN1KBP/5R2 w - - 0 1",
    "r2qr1k1/1p1b2p1/p1pBp2p/2Pn1p2/1P1P4/P7/2Q1BPPP/R3R1K1 b - - 0 1",
    "6rk/5p1p/4pPp1/3pP3/q2P1QPP/r7/P1RR2K1/8 w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 1",
    "r1b2rk1/3n1pbp/1qpp1np1/1p6/4PB2/2NP2PP/PP4BK/R2QNR2 b - - 0 1",
    "8/6p1/2k5/7p/1KP2r1P/8/8/7R w - - 0 1",
};

}  // namespace

std::span<const std::string_view> bench_positions() { return kBenchPositions; }

Result<uint64_t> run_bench(const BenchSettings& settings,
                           const std::function<void(const BenchPosition&)>& on_position) {
  // One thread: with more, the threads share the table in an order the scheduler picks.
  Engine engine(settings.hash_mb, 1);
  engine.set_move_overhead(0);
  SearchLimits limits;
  limits.depth = settings.depth;
  uint64_t total_nodes = 0;
  size_t number = 0;
  for (std::string_view fen : kBenchPositions) {
    ++number;
    Result<chess::Board> board = chess::Board::from_fen(fen);
    if (!board.ok()) return Error{"bench position " + std::to_string(number) + ": " + board.error().message};
    const SearchResult searched = engine.search(*board, {}, limits);
    total_nodes += searched.nodes;
    if (on_position) on_position({number, fen, searched.nodes});
  }
  return total_nodes;
}

}  // namespace bookforge::engine
