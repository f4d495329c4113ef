#include "json/build_json.h"

#include "json/read_json.h"

namespace bookforge::json {
namespace {

Json rescore_json(const book::RescoreStats& r, const std::vector<book::RepairedPosition>& repaired) {
  Json positions = Json::array();
  for (const book::RepairedPosition& p : repaired)
    positions.push_back({{"fen", p.fen}, {"move", p.move}, {"score", p.score}, {"weight", p.weight}});
  return {{"positions", r.positions},
          {"candidates", r.candidates},
          {"dropped", r.dropped},
          {"emptied", r.emptied},
          {"proven_kept", r.proven_kept},
          {"propagated_drops", r.propagated_drops},
          {"propagation_rounds", r.propagation_rounds},
          {"nodes", r.nodes},
          {"verdicts_taken", r.taken},
          {"seconds", fixed_decimals(r.seconds, 3)},
          {"repaired", std::move(positions)}};
}

}  // namespace

Json to_json(const BuildReportView& v) {
  const book::BuildReport& b = v.build;
  Json inputs = Json::array();
  for (const std::string& input : v.inputs) inputs.push_back(outside_text(input));
  Json games = to_json(b.read);
  games["duplicates"] = v.from_store
                            ? Json(nullptr)
                            : Json{{"dropped", b.duplicates_dropped}, {"kept", b.rules.keep_duplicates}};
  Json stages = Json::array();
  for (const book::StageCount& s : b.outcome.stages)
    stages.push_back({{"stage", s.name}, {"positions", s.positions}, {"entries", s.entries}});
  const book::StageCount& written = b.outcome.stages.back();
  return {{"output", outside_text(v.output)},
          {"inputs", std::move(inputs)},
          {"rules", b.rules.describe()},
          {"filters", outside_text(v.filters)},
          {"slices", v.slices},
          {"games", std::move(games)},
          {"tally",
           {{"threads", b.threads},
            {"memory_budget", v.memory_budget},
            {"tmp_dir", outside_text(b.tmp_dir)},
            {"games", b.tally.games},
            {"plies", b.tally.plies},
            {"repeats_skipped", b.tally.repeats_skipped},
            {"spills", b.tally.spills},
            {"spill_bytes", b.tally.spill_bytes},
            {"merge_passes", b.tally.merge_passes}}},
          {"stages", std::move(stages)},
          {"positions", written.positions},
          {"entries", written.entries},
          {"scaled_positions", b.outcome.scaled_positions},
          {"rescore", b.rescore ? rescore_json(*b.rescore, b.repaired) : Json(nullptr)},
          {"seconds",
           {{"read", fixed_decimals(b.read.seconds, 3)},
            {"rules_and_write", fixed_decimals(b.rules_seconds, 3)},
            {"total", fixed_decimals(v.total_seconds, 3)}}},
          {"peak_rss_bytes", v.peak_rss_bytes}};
}

}  // namespace bookforge::json
