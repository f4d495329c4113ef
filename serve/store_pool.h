// Read-only connections to one store, lent to the server's threads one request at a time: an
// SQLite connection serves one thread at a time, and opening one per request would cost more
// than the query. Explore's statement is prepared once per connection (Store::moves_at).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/store.h"

namespace bookforge::serve {

class StorePool {
 public:
  // Opens `connections` read-only connections (at least one); the first error is returned.
  static Result<std::unique_ptr<StorePool>> open(const std::string& path, size_t connections);

  // A connection for the length of a scope; waits while all are lent.
  class Lease {
   public:
    Lease(StorePool& pool, store::Store& store) : pool_(pool), store_(store) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_.give_back(store_); }
    store::Store& operator*() const { return store_; }
    store::Store* operator->() const { return &store_; }

   private:
    StorePool& pool_;
    store::Store& store_;
  };

  Lease lease();
  const std::string& path() const { return path_; }

 private:
  explicit StorePool(std::string path) : path_(std::move(path)) {}
  void give_back(store::Store& store);

  std::string path_;
  std::vector<std::unique_ptr<store::Store>> stores_;  // every connection, lent or not
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<store::Store*> idle_;
};

}  // namespace bookforge::serve
