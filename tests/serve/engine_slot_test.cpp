// The engines behind /api/engine: one search per client; a client's new request stops its old
// search, which answers with what it had; a search stops when its client leaves; each answer
// says which limit ended it; a client finds no engine while all serve others; after stop_all()
// nothing searches.
#include "serve/engine_slot.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

namespace bookforge::serve {
namespace {

QueriedPosition start_position() {
  Result<QueriedPosition> position = position_from_query({});
  EXPECT_TRUE(position);
  return *position;
}

constexpr EngineRequest kLongest{kMaxEngineDepth, kMaxEngineMovetimeMs};
constexpr EngineRequest kQuick{1, kMaxEngineMovetimeMs};

// Asks for `client` until the one engine is lent to someone else (then the answer is nullopt).
void wait_until_busy(EngineSlots& slots, const std::string& client) {
  while (slots.search(client, start_position(), kQuick)) std::this_thread::yield();
}

// The longest search for `client`, asked again while the engine serves another client's.
std::optional<EngineAnswer> insist(EngineSlots& slots, const std::string& client) {
  std::optional<EngineAnswer> result;
  while (!(result = slots.search(client, start_position(), kLongest))) std::this_thread::yield();
  return result;
}

TEST(EngineSlots, ANewRequestOfTheSameClientStopsItsOldSearch) {
  EngineSlots slots(1, 1);
  std::optional<EngineAnswer> first;
  std::thread long_search([&] { first = insist(slots, "a"); });
  wait_until_busy(slots, "b");  // "a" holds the only engine now

  std::optional<EngineAnswer> second = slots.search("a", start_position(), kQuick);
  long_search.join();
  ASSERT_TRUE(first);
  ASSERT_TRUE(second);
  // Stopped long before depth 30 (five seconds reach nowhere near it), with a move all the same
  // unless it was overtaken before it began.
  EXPECT_LT(first->result.depth, kMaxEngineDepth);
  EXPECT_EQ(first->stopped_by, SearchEnd::kNewerRequest);
  EXPECT_EQ(second->result.depth, 1);
  EXPECT_EQ(second->stopped_by, SearchEnd::kDepth);
  EXPECT_NE(second->result.best_move, chess::Move::none());
}

// The answer of a search by client "a", which finds the engine free.
EngineAnswer answer_of(EngineSlots& slots, const QueriedPosition& position, const EngineRequest& request,
                       const std::function<bool()>& client_left = nullptr) {
  std::optional<EngineAnswer> answer = slots.search("a", position, request, client_left);
  EXPECT_TRUE(answer);
  return answer.value_or(EngineAnswer{});
}

TEST(EngineSlots, ASearchStopsWhenItsClientLeaves) {
  EngineSlots slots(1, 1);
  std::atomic<int> asked{0};
  // The client is there for the first few checks, then gone.
  const EngineAnswer left = answer_of(slots, start_position(), kLongest, [&] { return ++asked > 3; });
  EXPECT_EQ(left.stopped_by, SearchEnd::kClientLeft);
  EXPECT_LT(left.result.depth, kMaxEngineDepth);
  // The engine is free for the next client at once.
  std::optional<EngineAnswer> next = slots.search("b", start_position(), kQuick);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->stopped_by, SearchEnd::kDepth);
  // A client gone before its search began gets none.
  const EngineAnswer gone = answer_of(slots, start_position(), kLongest, [] { return true; });
  EXPECT_EQ(gone.stopped_by, SearchEnd::kClientLeft);
  EXPECT_EQ(gone.result.nodes, 0u);
}

TEST(EngineSlots, EachAnswerSaysWhichLimitEndedIt) {
  EngineSlots slots(1, 1);
  const EngineAnswer by_time = answer_of(slots, start_position(), EngineRequest{kMaxEngineDepth, 30});
  EXPECT_EQ(by_time.stopped_by, SearchEnd::kMovetime);
  EXPECT_LT(by_time.result.depth, kMaxEngineDepth);
  EXPECT_EQ(answer_of(slots, start_position(), kQuick).stopped_by, SearchEnd::kDepth);
  Result<QueriedPosition> mated = position_from_query({{"play", "f2f3,e7e5,g2g4,d8h4"}});
  ASSERT_TRUE(mated);
  EXPECT_EQ(answer_of(slots, *mated, kQuick).stopped_by, SearchEnd::kNoLegalMoves);
}

TEST(EngineSlots, AClientFindsNoEngineWhileAllServeOthers) {
  EngineSlots slots(1, 1);
  std::optional<EngineAnswer> stopped;
  std::thread long_search([&] { stopped = insist(slots, "a"); });
  wait_until_busy(slots, "b");
  EXPECT_FALSE(slots.search("c", start_position(), kQuick));
  slots.stop_all();
  long_search.join();
  ASSERT_TRUE(stopped);
  EXPECT_EQ(stopped->stopped_by, SearchEnd::kServerStopping);
  EXPECT_FALSE(slots.search("a", start_position(), kQuick)) << "a search after stop_all()";
}

TEST(EngineSlots, ClientsTakeTurnsOnOneEngine) {
  EngineSlots slots(1, 1);
  for (const char* client : {"a", "b", "a", "c"}) {
    std::optional<EngineAnswer> answer = slots.search(client, start_position(), kQuick);
    ASSERT_TRUE(answer) << client;
    EXPECT_EQ(answer->result.depth, 1);
  }
}

}  // namespace
}  // namespace bookforge::serve
