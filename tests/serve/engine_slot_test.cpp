// The engines behind /api/engine: one search per client; a client's new request stops its old
// search, which answers with what it had; a client finds no engine while all serve others;
// after stop_all() nothing searches.
#include "serve/engine_slot.h"

#include <gtest/gtest.h>

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
std::optional<engine::SearchResult> insist(EngineSlots& slots, const std::string& client) {
  std::optional<engine::SearchResult> result;
  while (!(result = slots.search(client, start_position(), kLongest))) std::this_thread::yield();
  return result;
}

TEST(EngineSlots, ANewRequestOfTheSameClientStopsItsOldSearch) {
  EngineSlots slots(1, 1);
  std::optional<engine::SearchResult> first;
  std::thread long_search([&] { first = insist(slots, "a"); });
  wait_until_busy(slots, "b");  // "a" holds the only engine now

  std::optional<engine::SearchResult> second = slots.search("a", start_position(), kQuick);
  long_search.join();
  ASSERT_TRUE(first);
  ASSERT_TRUE(second);
  // Stopped long before depth 30 (five seconds reach nowhere near it), with a move all the same
  // unless it was overtaken before it began.
  EXPECT_LT(first->depth, kMaxEngineDepth);
  EXPECT_EQ(second->depth, 1);
  EXPECT_NE(second->best_move, chess::Move::none());
}

TEST(EngineSlots, AClientFindsNoEngineWhileAllServeOthers) {
  EngineSlots slots(1, 1);
  std::thread long_search([&] { insist(slots, "a"); });
  wait_until_busy(slots, "b");
  EXPECT_FALSE(slots.search("c", start_position(), kQuick));
  slots.stop_all();
  long_search.join();
  EXPECT_FALSE(slots.search("a", start_position(), kQuick)) << "a search after stop_all()";
}

TEST(EngineSlots, ClientsTakeTurnsOnOneEngine) {
  EngineSlots slots(1, 1);
  for (const char* client : {"a", "b", "a", "c"}) {
    std::optional<engine::SearchResult> result = slots.search(client, start_position(), kQuick);
    ASSERT_TRUE(result) << client;
    EXPECT_EQ(result->depth, 1);
  }
}

}  // namespace
}  // namespace bookforge::serve
