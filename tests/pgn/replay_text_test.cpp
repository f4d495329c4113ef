// pgn::replay_game_text: one pasted game replayed as the pipeline replays a game of a file.
#include "pgn/replay_text.h"

#include <gtest/gtest.h>

namespace bookforge::pgn {
namespace {

TEST(ReplayGameText, AGameWithCommentsAndVariationsGivesItsMainLine) {
  int plies = -1;
  uint16_t first_move = 0;
  const Status read = replay_game_text(
      "[White \"a\"]\n[Black \"b\"]\n\n1. e4 {[%clk 0:03:00]} c5 (1... e5 2. Nf3) 2. Nf3 $1 d6 *\n", "pgn",
      {}, [&](const ReplayedGame& game) {
        plies = int(game.plies.size());
        first_move = game.plies[0].move;
        EXPECT_EQ(*game.file, "pgn");
      });
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(plies, 4);
  EXPECT_NE(first_move, 0);
}

TEST(ReplayGameText, MaxPlyCutsTheReplay) {
  PipelineOptions options;
  options.max_ply = 2;
  size_t plies = 0;
  ASSERT_TRUE(replay_game_text("1. e4 c5 2. Nf3 d6 *", "pgn", options,
                               [&](const ReplayedGame& game) { plies = game.plies.size(); }));
  EXPECT_EQ(plies, 2u);
}

TEST(ReplayGameText, ABadGameIsAnErrorNamingItsLineAndMove) {
  bool called = false;
  const Status read = replay_game_text("[White \"a\"]\n\n1. e4 e5\n2. Ke3 *\n", "pgn", {},
                                       [&](const ReplayedGame&) { called = true; });
  ASSERT_FALSE(read);
  EXPECT_FALSE(called);
  EXPECT_EQ(read.error().message.rfind("pgn: line 4: ", 0), 0u) << read.error().message;
  EXPECT_NE(read.error().message.find("Ke3"), std::string::npos) << read.error().message;
}

TEST(ReplayGameText, TextWithoutAGameIsAnError) {
  const Status read = replay_game_text("hello there", "pgn", {}, [](const ReplayedGame&) {});
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message.rfind("pgn: ", 0), 0u) << read.error().message;
}

}  // namespace
}  // namespace bookforge::pgn
