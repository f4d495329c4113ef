// The evaluation network: its file (read back, bad files refused with their name), the integer
// network's symmetry, sanity on positions whose verdict is not in doubt, and the switches
// between it and the hand-written evaluation.
#include "engine/nnue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/eval.h"
#include "support/test_support.h"

namespace bookforge::engine {
namespace {

using test::board_of;
using test::colour_flipped;

const std::vector<std::string>& kPositions = test::evaluation_positions();

std::span<const unsigned char> bytes_of(const std::string& s) {
  return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

// Puts the process-wide evaluation settings back as the other tests expect them.
struct DefaultEvaluationAfter {
  ~DefaultEvaluationAfter() {
    nnue::set_use_network(true);
    (void)nnue::use_network_file("<embedded>");
  }
};

TEST(Nnue, EmbeddedNetworkReadsBackFromItsBytes) {
  const std::string bytes = nnue::network_bytes(nnue::embedded_network());
  Result<std::unique_ptr<nnue::Network>> again = nnue::read_network(bytes_of(bytes), "copy");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(nnue::network_bytes(**again), bytes);
  // A trained network, not the zeros it started from.
  EXPECT_NE(nnue::evaluate(board_of(kPositions[2]), nnue::embedded_network()), 0);
}

TEST(Nnue, BadFilesAreRefusedByName) {
  const std::string good = nnue::network_bytes(nnue::embedded_network());
  std::string magic = good;
  magic[0] = 'X';
  auto message = [](const std::string& bytes) {
    Result<std::unique_ptr<nnue::Network>> net = nnue::read_network(bytes_of(bytes), "net.nnue");
    return net.ok() ? std::string("read") : net.error().message;
  };
  EXPECT_EQ(message(magic), "net.nnue: not a bookforge network (no BFNN header)");
  EXPECT_EQ(message(good.substr(0, good.size() - 1)).rfind("net.nnue: ", 0), 0u);
  EXPECT_NE(message(good.substr(0, good.size() - 1)), "read");
  EXPECT_NE(message(good + "x"), "read");
  std::string hidden = good;
  hidden[8] = char(64);
  EXPECT_EQ(message(hidden),
            "net.nnue: a network of 64 neurons, this build has " + std::to_string(nnue::kHidden));
  auto huge = std::make_unique<nnue::Network>(nnue::embedded_network());
  huge->output_weights.fill(32767);  // 255 * 32767 * 256 fits 32 bits, with this bias it does not
  huge->output_bias = 100'000'000;
  EXPECT_EQ(message(nnue::network_bytes(*huge)),
            "net.nnue: output weights too large for this build's integer network");
  Result<std::unique_ptr<nnue::Network>> missing = nnue::read_network_file("/nonexistent/net.nnue");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/net.nnue"), std::string::npos);
}

// Each side sees the board from its own side: the colour-flipped position is the same position
// for the network, to the last unit.
TEST(Nnue, ColourFlipGivesTheSameScoreForTheSideToMove) {
  for (const std::string& fen : kPositions)
    EXPECT_EQ(nnue::evaluate(board_of(fen), nnue::embedded_network()),
              nnue::evaluate(board_of(colour_flipped(fen)), nnue::embedded_network()))
        << fen;
}

TEST(Nnue, MaterialDecides) {
  const nnue::Network& net = nnue::embedded_network();
  const Score start = nnue::evaluate(chess::Board(), net);
  EXPECT_GT(start, -30);
  EXPECT_LT(start, 80);
  EXPECT_GT(nnue::evaluate(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), net), 500);
  EXPECT_LT(nnue::evaluate(board_of("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"), net), -500);
  EXPECT_GT(nnue::evaluate(board_of("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1"), net),
            nnue::evaluate(board_of("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1"), net));
}

TEST(Nnue, EvaluateUsesTheNetworkUnlessToldOtherwise) {
  DefaultEvaluationAfter restore;
  const chess::Board b = board_of(kPositions[2]);
  EXPECT_EQ(evaluate(b), nnue::evaluate(b, nnue::embedded_network()));
  nnue::set_use_network(false);
  EXPECT_EQ(evaluate(b), evaluate(b, default_eval_params()));
  nnue::set_use_network(true);
  // Positions no one can win are draws whatever the network says.
  EXPECT_EQ(evaluate(board_of("8/8/4k3/8/8/3KN3/8/8 w - - 0 1")), 0);
}

TEST(Nnue, AnEvalFileReplacesTheEmbeddedNetworkUntilReset) {
  DefaultEvaluationAfter restore;
  test::TempDir dir;
  // A network of zeros but for the output bias: every position scores the bias.
  auto flat = std::make_unique<nnue::Network>();
  flat->feature_weights.fill(0);
  flat->feature_bias.fill(0);
  flat->output_weights.fill(0);
  flat->output_bias = 100 * nnue::kQA * nnue::kQB / nnue::kScale;  // 100 cp
  const std::string path = (dir.path() / "flat.nnue").string();
  test::write_file(path, nnue::network_bytes(*flat));
  const chess::Board b = board_of(kPositions[1]);
  const Score embedded = evaluate(b);
  ASSERT_TRUE(nnue::use_network_file(path).ok());
  EXPECT_EQ(evaluate(b), 100);
  EXPECT_FALSE(nnue::use_network_file((dir.path() / "missing.nnue").string()).ok());
  EXPECT_EQ(evaluate(b), 100) << "a file that cannot be read leaves the network in use";
  ASSERT_TRUE(nnue::use_network_file("<embedded>").ok());
  EXPECT_EQ(evaluate(b), embedded);
}

}  // namespace
}  // namespace bookforge::engine
