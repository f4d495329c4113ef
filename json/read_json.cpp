#include "json/read_json.h"

namespace bookforge::json {

Json to_json(const pgn::BadGame& bad) {
  return {{"file", outside_text(bad.file)},
          {"game", bad.game_number},
          {"line", bad.line},
          {"reason", bad.reason},
          {"detail", outside_text(bad.detail)}};
}

Json to_json(const pgn::ReadStats& stats) {
  Json bad_examples = Json::array();
  for (const pgn::BadGame& bad : stats.bad_examples) bad_examples.push_back(to_json(bad));
  return {{"games", stats.games},
          {"accepted", stats.accepted},
          {"rejected", stats.rejected},
          {"bad", stats.bad},
          {"bad_reasons", stats.bad_reasons},
          {"unsupported_variant", stats.unsupported_variant},
          {"plies", stats.plies},
          {"bytes", stats.bytes},
          {"seconds", fixed_decimals(stats.seconds, 3)},
          {"bad_examples", std::move(bad_examples)}};
}

}  // namespace bookforge::json
