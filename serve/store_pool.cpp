#include "serve/store_pool.h"

#include <algorithm>

namespace bookforge::serve {

Result<std::unique_ptr<StorePool>> StorePool::open(const std::string& path, size_t connections) {
  std::unique_ptr<StorePool> pool(new StorePool(path));
  for (size_t i = 0; i < std::max<size_t>(connections, 1); ++i) {
    Result<store::Store> opened = store::Store::open(path, false);
    if (!opened) return opened.error();
    pool->stores_.push_back(std::make_unique<store::Store>(std::move(*opened)));
    pool->idle_.push_back(pool->stores_.back().get());
  }
  return pool;
}

StorePool::Lease StorePool::lease() {
  std::unique_lock lock(mutex_);
  returned_.wait(lock, [this] { return !idle_.empty(); });
  store::Store* store = idle_.back();
  idle_.pop_back();
  return Lease(*this, *store);
}

void StorePool::give_back(store::Store& store) {
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(&store);
  }
  returned_.notify_one();
}

}  // namespace bookforge::serve
