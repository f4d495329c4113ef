// `bookforge uci` under real clients, run as subprocesses: the no-pause conformance client
// (tests/clients/uci_conformance.mjs, with chess.js as an independent judge of legality) and
// games through the Polyglot adapter in xboard mode against Stockfish
// (tests/clients/xboard_match.mjs). The Node.js packages are installed by
// scripts/install-deps.sh; the tests skip, saying why, when node, the packages, polyglot or
// stockfish are absent. BOOKFORGE_LONG_TESTS=1 runs ten times more cycles and more games.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/test_support.h"

namespace bookforge::engine {
namespace {

namespace fs = std::filesystem;

bool long_tests() { return std::getenv("BOOKFORGE_LONG_TESTS") != nullptr; }

// The Node.js client scripts' folder, or an empty path (with the reason) when they cannot run.
fs::path clients_or_reason(std::string& reason) {
  const fs::path clients = test::source_dir() / "tests" / "clients";
  if (test::run_program({"node", "--version"}).exit_code != 0) {
    reason = "node is not installed";
    return {};
  }
  if (!fs::exists(clients / "node_modules" / "chess.js" / "package.json")) {
    reason = "chess.js is not installed (scripts/install-deps.sh runs npm ci in tests/clients)";
    return {};
  }
  return clients;
}

// The figures line a client prints last ("cycles N, wrong answers W" or "games ...").
std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

TEST(UciClients, NoPauseClientGetsOneLegalAnswerPerSearch) {
  std::string reason;
  const fs::path clients = clients_or_reason(reason);
  if (clients.empty()) GTEST_SKIP() << reason;
  const std::string cycles = long_tests() ? "20000" : "2000";
  const auto r = test::run_program(
      {"node", (clients / "uci_conformance.mjs").string(), "--bookforge", BOOKFORGE_BIN, "--cycles", cycles});
  std::cout << last_line(r.out) << '\n';
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("cycles " + cycles + ", wrong answers 0"), std::string::npos) << r.out;
}

TEST(UciClients, GamesThroughThePolyglotAdapter) {
  std::string reason;
  const fs::path clients = clients_or_reason(reason);
  if (clients.empty()) GTEST_SKIP() << reason;
  for (const char* tool : {"/usr/games/polyglot", "/usr/games/stockfish"})
    if (!fs::exists(tool)) GTEST_SKIP() << tool << " is not installed";
  test::TempDir dir;
  const std::string games = long_tests() ? "6" : "2";
  // A fixed 100 ms a move, then 1 s + 0.1 s with pondering. The clock margin is wide (2 s): this
  // test is about the protocol (legal moves, an answer every time) on a CI machine that may be
  // busy; the figures with the usual 0.15 s margin come from the longer series run by hand.
  for (const auto& tc : {std::vector<std::string>{"--st", "0.1"},
                         std::vector<std::string>{"--tc", "1+0.1", "--ponder", "1"}}) {
    std::vector<std::string> argv = {"node",        (clients / "xboard_match.mjs").string(),
                                     "--bookforge", BOOKFORGE_BIN,
                                     "--games",     games,
                                     "--dir",       dir.path().string()};
    argv.insert(argv.end(), tc.begin(), tc.end());
    const auto r = test::run_program(argv);
    std::cout << last_line(r.out) << '\n';
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("illegal moves 0, time losses 0, no answer 0"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace bookforge::engine
