// The HTTP API's endpoints as plain functions of the query (serve/server.h puts them on URLs):
// each answers JSON, or a 400 naming the bad parameter, or a 404 for what does not exist.
// Everything is read-only, and safe to call from many threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/opening_names.h"
#include "serve/api_response.h"
#include "serve/book_moves.h"
#include "serve/engine_slot.h"
#include "serve/query_params.h"
#include "serve/store_pool.h"

namespace bookforge::serve {

class Api {
 public:
  // `info` is what /api/info answers (made once: the store's counts do not change).
  Api(std::unique_ptr<StorePool> stores, book::OpeningNames names, std::vector<NamedBook> books,
      std::unique_ptr<EngineSlots> engines, nlohmann::ordered_json info);

  ApiResponse explorer(const QueryParams& params);
  ApiResponse position(const QueryParams& params) const;
  ApiResponse books(const QueryParams& params) const;
  // `client` names the asker: one search per client at a time.
  ApiResponse engine(const QueryParams& params, const std::string& client);
  ApiResponse game(const QueryParams& params);
  ApiResponse info() const;

  // Stops the engine searches under way and refuses new ones.
  void stop_searches();

 private:
  std::unique_ptr<StorePool> stores_;
  book::OpeningNames names_;
  std::vector<NamedBook> books_;
  std::unique_ptr<EngineSlots> engines_;
  std::string info_;
};

// /api/info's body: the store's counts and how they were made, the books, which explorer
// filters the store can apply (every store keeps its counts by speed, rating band and month),
// the version.
Result<nlohmann::ordered_json> make_info(store::Store& store, const std::vector<NamedBook>& books);

}  // namespace bookforge::serve
