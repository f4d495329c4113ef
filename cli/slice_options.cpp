#include "cli/slice_options.h"

#include "cli/command.h"

namespace bookforge::cli {

void add_slice_options(CLI::App& command, SliceFlags& flags, bool variant_flag) {
  command.add_option(
      "--speeds", flags.speeds,
      "Only games of these speeds, from TimeControl: ultrabullet, bullet, blitz, rapid, classical, "
      "correspondence, unknown (comma-separated)");
  command.add_option(
      "--ratings", flags.ratings,
      "Only games in these rating bands, by the mean of both players' Elos: 0 (below 1000), 1000, "
      "1200, 1400, 1600, 1800, 2000, 2200, 2500, 2800 (each band runs up to the next), or "
      "unrated (either Elo missing); comma-separated");
  command.add_option(
      "--since", flags.since,
      "Only games from this month on (YYYY-MM or YYYY), by UTCDate or Date; games of unknown date "
      "are left out");
  command.add_option("--until", flags.until, "Only games up to this month (YYYY-MM or YYYY), as --since");
  if (variant_flag)
    command
        .add_option("--variant", flags.variant,
                    "Only games of this variant: standard, chess960 or any (default: what the store holds; "
                    "standard from a store of both)")
        ->check(CLI::IsMember({"standard", "chess960", "any"}));
}

Result<counts::SliceFilter> slice_filter(const SliceFlags& flags) {
  return counts::parse_slice_filter(flags.speeds, flags.ratings, flags.since, flags.until);
}

int open_store_with_filter(const std::string& db_path, const SliceFlags& flags, counts::SliceFilter& filter,
                           std::optional<store::Store>& db, pgn::VariantSet* answered) {
  Result<counts::SliceFilter> parsed = slice_filter(flags);
  if (!parsed) {
    print_error(parsed.error().message);
    return kExitUsage;
  }
  filter = std::move(*parsed);
  Result<store::Store> opened = store::Store::open(db_path, false);
  if (!opened) {
    print_error(opened.error().message);
    return kExitFailure;
  }
  db.emplace(std::move(*opened));
  Result<pgn::VariantSet> held = db->variants();
  if (!held) {
    print_error(held.error().message);
    return kExitFailure;
  }
  const std::optional<pgn::VariantSet> asked =
      flags.variant.empty() ? std::nullopt : pgn::parse_variant_set(flags.variant);
  filter.variants = counts::query_variants(asked, *held);
  if (answered) *answered = counts::answered_variants(asked, *held);
  return kExitOk;
}

}  // namespace bookforge::cli
