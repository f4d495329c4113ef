// Rescoring in batches, from the real binary: `build --rescore-plan`, `rescore PLAN --batch i/N`
// and `build --rescore-verdicts` give the book (and the suspicious moves) of a rescoring done
// in one process, byte for byte; and what does not fit together is refused with nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace bookforge {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

Args concat(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class RescoreBatches : public ::testing::Test {
 protected:
  // A few hundred book positions: the sample's games to ply 12.
  Args build_args(const Args& rules_and_limits) const {
    return concat({"build", games_, "--max-ply", "12", "-q"}, rules_and_limits);
  }

  // The one-process rescoring: the book and its suspicious moves.
  void build_in_one_process(const Args& flags, const std::string& name) {
    const auto r = test::run_bookforge(
        concat(build_args(flags), {"-o", path(name + ".bin"), "--suspicious", path(name + ".csv")}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  void write_plan(const Args& flags, const std::string& plan) {
    const auto r = test::run_bookforge(concat(build_args(flags), {"--rescore-plan", path(plan)}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  // The verdicts of batches i/n of the plan, one file each; their names.
  Args rescore_batches(const std::string& plan, int n, const Args& extra = {}) {
    Args files;
    for (int i = 0; i < n; ++i) {
      const std::string file = path(plan + "." + std::to_string(i) + "of" + std::to_string(n));
      const auto r = test::run_bookforge(
          concat({"rescore", path(plan), "--batch", std::to_string(i) + "/" + std::to_string(n), "-o", file},
                 extra));
      EXPECT_EQ(r.exit_code, 0) << r.err;
      files.push_back(file);
    }
    return files;
  }

  test::CommandResult build_from_verdicts(const Args& flags, const Args& verdicts, const std::string& name) {
    const Args outputs = {"-o",       path(name + ".bin"), "--suspicious", path(name + ".csv"),
                          "--report", path(name + ".json")};
    return test::run_bookforge(
        concat(concat(concat(build_args(flags), {"--rescore-verdicts"}), verdicts), outputs));
  }

  // Plan, rescore in 1, 2 and 3 batches, build from the verdicts: the one-process book each time.
  void expect_same_book_for_any_batches(const Args& flags, const Args& rescore_extra = {}) {
    build_in_one_process(flags, "one");
    write_plan(flags, "plan");
    for (int n : {1, 2, 3}) {
      SCOPED_TRACE(n);
      const std::string name = "batched" + std::to_string(n);
      const auto r = build_from_verdicts(flags, rescore_batches("plan", n, rescore_extra), name);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(dir_ / (name + ".bin")), test::read_file(dir_ / "one.bin"));
      EXPECT_EQ(test::read_file(dir_ / (name + ".csv")), test::read_file(dir_ / "one.csv"));
      // Every position came from the verdicts: nothing was searched at the build.
      const auto report = nlohmann::json::parse(test::read_file(dir_ / (name + ".json")));
      EXPECT_GT(report["rescore"]["positions"].get<int>(), 100);
      EXPECT_EQ(report["rescore"]["verdicts_taken"], report["rescore"]["positions"]);
    }
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  test::TempDir dir_;
  const std::string games_ = (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string();
};

TEST_F(RescoreBatches, DepthLimitGivesTheOneProcessBook) {
  expect_same_book_for_any_batches({"--rescore-depth", "5"});
}

TEST_F(RescoreBatches, PropagationRepairBlendAndSuspiciousGiveTheOneProcessBook) {
  expect_same_book_for_any_batches(
      {"--rescore-depth", "4", "--rescore-propagate", "--rescore-repair", "--rescore-blend", "0.5"},
      {"--threads", "2"});
}

// The plan names the evaluation with the engine, so every batch searches with the one the build
// chose, whatever a worker's default.
TEST_F(RescoreBatches, TheHandWrittenEvaluationIsThePlansAndGivesTheOneProcessBook) {
  const Args flags = {"--rescore-depth", "5", "--rescore-eval", "classical"};
  expect_same_book_for_any_batches(flags);
  write_plan(flags, "classical-plan");
  EXPECT_NE(test::read_file(dir_ / "classical-plan").find("\nengine embedded-classical\n"),
            std::string::npos);
  build_in_one_process({"--rescore-depth", "5"}, "network");
  build_in_one_process(flags, "classical");
  EXPECT_NE(test::read_file(dir_ / "network.bin"), test::read_file(dir_ / "classical.bin"));
}

TEST_F(RescoreBatches, NodeLimitGivesTheOneProcessBook) {
  expect_same_book_for_any_batches({"--rescore-nodes", "1000", "--min-move-games", "2"});
}

TEST_F(RescoreBatches, PlanListsEachPositionOnceInKeyOrderAndWritesNoBook) {
  write_plan({"--rescore-depth", "5"}, "plan");
  const std::string plan = test::read_file(dir_ / "plan");
  ASSERT_TRUE(
      plan.starts_with("bookforge rescore-plan 1\ndepth 5\nnodes 0\nengine embedded\nhash 8\npositions "))
      << plan.substr(0, 200);
  std::vector<std::string> keys;
  for (size_t at = plan.find('\n', plan.find("positions ")) + 1;
       at < plan.size() && plan.compare(at, 4, "end ");) {
    const size_t end = plan.find('\n', at);
    keys.push_back(plan.substr(at, 16));
    at = end + 1;
  }
  EXPECT_GT(keys.size(), 100u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  EXPECT_NE(plan.find("\npositions " + std::to_string(keys.size()) + "\n"), std::string::npos);
  // Nothing but the plan in the folder: the book the build made on the way never appears.
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_.path())) ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(RescoreBatches, APositionWithoutAVerdictIsSearchedAtTheBuild) {
  const Args flags = {"--rescore-depth", "5"};
  build_in_one_process(flags, "one");
  write_plan(flags, "plan");
  const Args half = rescore_batches("plan", 2);
  const auto r = build_from_verdicts(flags, {half[0]}, "half");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir_ / "half.bin"), test::read_file(dir_ / "one.bin"));
  const auto report = nlohmann::json::parse(test::read_file(dir_ / "half.json"));
  const int positions = report["rescore"]["positions"], taken = report["rescore"]["verdicts_taken"];
  EXPECT_EQ(taken, positions / 2);
}

TEST_F(RescoreBatches, VerdictsOfOtherLimitsAreRefusedNamingTheLimit) {
  write_plan({"--rescore-depth", "5"}, "plan");
  const Args verdicts = rescore_batches("plan", 1);
  const std::string file = fs::path(verdicts[0]).filename().string();
  const auto depth = build_from_verdicts({"--rescore-depth", "4"}, verdicts, "depth");
  EXPECT_EQ(depth.exit_code, 1);
  EXPECT_NE(depth.err.find("rescore depth: 5 in " + verdicts[0] + ", 4 in this build"), std::string::npos)
      << depth.err;
  const auto nodes = build_from_verdicts({"--rescore-nodes", "1000"}, verdicts, "nodes");
  EXPECT_EQ(nodes.exit_code, 1);
  EXPECT_NE(nodes.err.find("rescore depth: 5 in " + verdicts[0] + ", none in this build"), std::string::npos)
      << nodes.err;
  const auto hash = build_from_verdicts({"--rescore-depth", "5", "--rescore-hash", "16"}, verdicts, "hash");
  EXPECT_EQ(hash.exit_code, 1);
  EXPECT_NE(hash.err.find("rescore hash: 8 MB in " + verdicts[0] + ", 16 MB in this build"),
            std::string::npos)
      << hash.err;
  const auto eval =
      build_from_verdicts({"--rescore-depth", "5", "--rescore-eval", "classical"}, verdicts, "eval");
  EXPECT_EQ(eval.exit_code, 1);
  EXPECT_NE(
      eval.err.find("rescore engine: embedded in " + verdicts[0] + ", embedded-classical in this build"),
      std::string::npos)
      << eval.err;
  for (const char* name : {"depth", "nodes", "hash", "eval"}) {
    EXPECT_FALSE(fs::exists(dir_ / (std::string(name) + ".bin"))) << name;
    EXPECT_FALSE(fs::exists(dir_ / (std::string(name) + ".csv"))) << name;
  }
}

TEST_F(RescoreBatches, VerdictsOfOtherCandidatesAreRefusedNamingTheFileAndTheKey) {
  // The plan of another rule set: some positions keep other candidates.
  write_plan({"--rescore-depth", "5", "--min-move-games", "2"}, "plan");
  const Args verdicts = rescore_batches("plan", 1);
  const auto r = build_from_verdicts({"--rescore-depth", "5"}, verdicts, "other");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(verdicts[0] + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": position "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in the verdicts,"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "other.bin"));
}

TEST_F(RescoreBatches, AVerdictGivenTwiceIsRefusedNamingBothFiles) {
  write_plan({"--rescore-depth", "5"}, "plan");
  const Args verdicts = rescore_batches("plan", 2);
  fs::copy_file(verdicts[1], dir_ / "copy");
  const auto r =
      build_from_verdicts({"--rescore-depth", "5"}, {verdicts[0], verdicts[1], path("copy")}, "twice");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(verdicts[1] + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("copy") + ":"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "twice.bin"));
}

TEST_F(RescoreBatches, ACutOrDamagedPlanOrVerdictsFileIsRefusedNamingIt) {
  write_plan({"--rescore-depth", "5"}, "plan");
  const Args verdicts = rescore_batches("plan", 1);
  const std::string plan = test::read_file(dir_ / "plan"), verdict = test::read_file(verdicts[0]);
  test::write_file(dir_ / "cut_plan", plan.substr(0, plan.size() / 2));
  test::write_file(dir_ / "cut_verdicts", verdict.substr(0, verdict.size() - 30));
  std::string damaged = plan;
  damaged[damaged.size() / 2] = damaged[damaged.size() / 2] == '1' ? '2' : '1';
  test::write_file(dir_ / "damaged_plan", damaged);

  for (const char* name : {"cut_plan", "damaged_plan"}) {
    const auto r = test::run_bookforge({"rescore", path(name), "-o", path("v")});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_NE(r.err.find(path(name) + ": "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "v")) << name;
  }
  const auto r = build_from_verdicts({"--rescore-depth", "5"}, {path("cut_verdicts")}, "cut");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path("cut_verdicts") + ": cut short"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "cut.bin"));
}

TEST_F(RescoreBatches, AMalformedBatchIsRefused) {
  write_plan({"--rescore-depth", "5"}, "plan");
  for (const char* batch : {"3/3", "0/0", "1", "a/2", "-1/2"}) {
    const auto r = test::run_bookforge({"rescore", path("plan"), "--batch", batch, "-o", path("v")});
    EXPECT_EQ(r.exit_code, 2) << batch;
    EXPECT_NE(r.err.find("--batch '" + std::string(batch) + "'"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "v")) << batch;
  }
}

TEST_F(RescoreBatches, APlanIsWrittenInsteadOfABook) {
  const auto both = test::run_bookforge(
      build_args({"--rescore-depth", "5", "--rescore-plan", path("plan"), "-o", path("book.bin")}));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--rescore-plan writes a plan and no book: leave out -o"), std::string::npos)
      << both.err;
  const auto no_limit = test::run_bookforge(build_args({"--rescore-plan", path("plan")}));
  EXPECT_EQ(no_limit.exit_code, 2);
  EXPECT_NE(no_limit.err.find("--rescore-plan"), std::string::npos) << no_limit.err;
  EXPECT_FALSE(fs::exists(dir_ / "plan"));
  EXPECT_FALSE(fs::exists(dir_ / "book.bin"));
  // A plan made for an external engine is judged by that engine only.
  const auto plan =
      test::run_bookforge(build_args({"--rescore-depth", "5", "--rescore-engine", "/opt/engines/stockfish",
                                      "--rescore-plan", path("plan")}));
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(test::read_file(dir_ / "plan").find("\nengine stockfish\n"), std::string::npos);
  const auto other =
      test::run_bookforge({"rescore", path("plan"), "--engine", "/usr/games/fairy", "-o", path("v")});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("made for the engine stockfish, not fairy"), std::string::npos) << other.err;
  EXPECT_FALSE(fs::exists(dir_ / "v"));
}

}  // namespace
}  // namespace bookforge
