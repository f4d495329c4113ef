// The server's connections to the store: read-only in fact, not only by intent (a write
// through one fails and leaves the file as it was), and lent one thread at a time.
#include "serve/store_pool.h"

#include <thread>

#include "support/test_support.h"

namespace bookforge::serve {
namespace {

using test::TempDir;

std::filesystem::path make_store(const TempDir& dir) {
  const std::filesystem::path path = dir / "tree.sqlite";
  test::CommandResult added =
      test::run_bookforge({"db", "add", "--db", path.string(),
                           (test::source_dir() / "data-samples" / "twic0920-2000.pgn").string()});
  EXPECT_EQ(added.exit_code, 0) << added.err;
  return path;
}

TEST(StorePool, ConnectionsRefuseWrites) {
  TempDir dir;
  const std::filesystem::path path = make_store(dir);
  Result<std::unique_ptr<StorePool>> pool = StorePool::open(path.string(), 2);
  ASSERT_TRUE(pool) << pool.error().message;
  {
    StorePool::Lease store = (*pool)->lease();
    store::SourceRecord record;
    record.name = "written.pgn";
    EXPECT_FALSE(store->add_source(record)) << "a read-only connection wrote a source";
    Result<std::vector<store::SourceRecord>> sources = store->sources();
    ASSERT_TRUE(sources) << sources.error().message;
    EXPECT_EQ(sources->size(), 1u);
  }
}

TEST(StorePool, LendsEachConnectionToOneThreadAtATime) {
  TempDir dir;
  const std::filesystem::path path = make_store(dir);
  Result<std::unique_ptr<StorePool>> pool = StorePool::open(path.string(), 2);
  ASSERT_TRUE(pool) << pool.error().message;
  std::atomic<int> lent{0}, most{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        StorePool::Lease store = (*pool)->lease();
        const int now = ++lent;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        if (!store->moves_at(chess::Board().key())) ++failures;
        --lent;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(most.load(), 2);
}

TEST(StorePool, OpeningAMissingStoreNamesIt) {
  TempDir dir;
  Result<std::unique_ptr<StorePool>> pool = StorePool::open((dir / "absent.sqlite").string(), 2);
  ASSERT_FALSE(pool);
  EXPECT_NE(pool.error().message.find("absent.sqlite"), std::string::npos);
}

}  // namespace
}  // namespace bookforge::serve
