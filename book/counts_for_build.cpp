#include "book/counts_for_build.h"

namespace bookforge::book {
namespace {

// A summed (key, move, slice) stream read as the (key, move) stream of a build's tally: the
// slices of each (key, move) added up (slice 0), and the fields a build's tally leaves at 0
// (counts/tally.h: TallyOptions::ratings, opponent_ratings) zeroed.
class BookEntries final : public counts::EntryStream {
 public:
  BookEntries(std::unique_ptr<counts::EntryStream> sliced, bool ratings)
      : sliced_(std::move(sliced)), ratings_(ratings) {}

  bool next(counts::TallyEntry& entry) override {
    if (!has_pending_ && !(has_pending_ = sliced_->next(pending_))) return false;
    entry = pending_;
    while ((has_pending_ = sliced_->next(pending_)) && pending_.key == entry.key &&
           pending_.move == entry.move)
      entry.add(pending_);
    entry.slice = 0;
    entry.opponent_rating_sum = 0;
    entry.opponents_rated = 0;
    if (!ratings_) {
      entry.rating_sum = 0;
      entry.rated_games = 0;
    }
    return true;
  }
  Status status() const override { return sliced_->status(); }

 private:
  std::unique_ptr<counts::EntryStream> sliced_;
  bool ratings_;
  counts::TallyEntry pending_;
  bool has_pending_ = false;
};

const char* on_off(bool on) { return on ? "on" : "off"; }

}  // namespace

Result<std::unique_ptr<CountsForBuild>> open_counts_for_build(const std::vector<std::string>& dirs,
                                                              const FromCountsRequest& request,
                                                              SelectionRules& rules) {
  Result<std::vector<counts::CountsSet>> sets = counts::open_sets_to_add(dirs);
  if (!sets) return sets.error();
  auto out = std::make_unique<CountsForBuild>();
  out->total = counts::combined_header(*sets);
  const counts::CountsOptions& counted = out->total.options;
  const std::string cannot = sets->front().dir + " was counted with max-ply " +
                             std::to_string(counted.max_ply) + ", count-repeats " +
                             on_off(counted.count_repeats) + ", filters " + counted.filters +
                             ", duplicates " + (counted.keep_duplicates ? "kept" : "dropped") + "; ";
  if (request.filters_given)
    return Error{cannot +
                 "the game filters were applied by count: leave them out (count again to change them)"};
  if (request.max_ply_given && rules.max_ply != counted.max_ply)
    return Error{cannot + "--max-ply " + std::to_string(rules.max_ply) +
                 " needs counting again (leave --max-ply out to use the sets')"};
  if (request.repeats_given && rules.count_repeats != counted.count_repeats)
    return Error{cannot + "--count-repeats needs counting again"};
  if (request.duplicates_given && rules.keep_duplicates != counted.keep_duplicates)
    return Error{cannot + (rules.keep_duplicates ? "--keep-duplicates" : "--drop-duplicates") +
                 " needs counting again" + (rules.keep_duplicates ? " with --keep-duplicates" : "")};
  if (rules.count_repeats != counted.count_repeats)
    out->warnings.push_back(std::string("the sets count repeated moves ") +
                            (counted.count_repeats ? "every time" : "once per game") +
                            ", unlike the rules preset: using the sets' counts");
  if (rules.max_ply != counted.max_ply)
    out->warnings.push_back("the sets were counted to max-ply " + std::to_string(counted.max_ply) +
                            ", unlike the rules preset's " + std::to_string(rules.max_ply) +
                            ": using the sets'");
  rules.max_ply = counted.max_ply;
  if (rules.needs_ratings() && !counted.ratings)
    return Error{sets->front().dir + " was counted without the players' ratings, which --weight " +
                 std::string(weight_kind_name(rules.weight)) + " needs: count with --weight " +
                 std::string(weight_kind_name(rules.weight)) + " (or --for store)"};
  rules.count_repeats = counted.count_repeats;
  rules.keep_duplicates = counted.keep_duplicates;

  const uint32_t finest = counts::finest_common_partitions(*sets);
  if (request.ranges > finest)
    return Error{"--key-range " + std::to_string(request.range) + "/" + std::to_string(request.ranges) +
                 ": a range of at most the sets' smallest K (" + std::to_string(finest) + ") is needed"};
  std::vector<std::unique_ptr<counts::EntryStream>> groups = counts::summed_groups(*sets, finest);
  // With a key range, only its groups (the finer ranges within it), still in key order.
  const uint32_t per_range = finest / request.ranges;
  for (uint32_t g = request.range * per_range; g < (request.range + 1) * per_range; ++g)
    out->streams.push_back(std::make_unique<BookEntries>(std::move(groups[g]), rules.needs_ratings()));
  return out;
}

}  // namespace bookforge::book
