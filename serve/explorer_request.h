// The explorer's own parameters, as lila-openingexplorer (lichess's explorer server) takes
// them: how many moves and games to list, and the filters (speeds, ratings, since, until),
// which the store applies (counts/slice.h). Each path reads them as its lichess counterpart
// does (the README's table lists where ours differ):
// - counts are whole numbers >= 0, cut to what we list at most (lichess sets no maximum);
// - `variant`: standard chess under lichess's names for it ("fromPosition" is standard chess
//   from a FEN there too), or chess960: the store's games of that variant (a store of one
//   variant answers with its own when none is named, one of both with standard chess); other
//   variants are refused, as no store counts them;
// - `ratings`: on /masters and /lichess any number picks lichess's group holding it ("1500":
//   the 1400 group), and "2500" is 2500 and above, as on lichess; on our own path they are
//   db explore's bands (2500: 2500 to 2799); "2800" and "unrated" are our own groups;
// - `since` / `until`: months "YYYY-MM" or "YYYY/MM" (a year alone is ours: January, or
//   December for until); on /masters, years, as lichess's masters take them. A `since` after
//   `until` selects no game;
// - `speeds`: lichess's "ultraBullet" and ours, "ultrabullet"; "unknown" is ours;
// - `history`: lichess's spellings of true and false; true adds the position's games month by
//   month (store/history.h) as lichess's `history`, every month from the first to the last
//   with games (lichess leaves out the current month, which it may not have indexed whole);
//   /masters has none, as on lichess.
#pragma once

#include "base/result.h"
#include "counts/slice.h"
#include "serve/query_params.h"
#include "store/game_record.h"

namespace bookforge::serve {

inline constexpr int kDefaultExplorerMoves = 12;  // lichess's default

// Which path asked: each answers in its lichess counterpart's shape.
enum class ExplorerPath {
  kOwn,      // /api/explorer, /explorer: both game lists
  kMasters,  // /masters, /master: years for since/until, no recentGames, no speed or mode
  kLichess,  // /lichess: each game's speed and mode
};

struct ExplorerRequest {
  ExplorerPath path = ExplorerPath::kOwn;
  int max_moves = kDefaultExplorerMoves;
  int top_games = store::kTopGames;  // at most what the store keeps (store/game_record.h)
  int recent_games = store::kRecentGames;
  counts::SliceFilter filter;  // empty: every game
  // The variant asked for (nullopt: none named); the filter's variants are set from it and the
  // store's (counts::query_variants) where the store is known.
  std::optional<pgn::VariantSet> variant;
  bool history = false;
};

// The variant lichess's `variant` names: its names of standard chess ("fromPosition" is a
// standard game from a set-up position) and of Chess960; nullopt for the variants no store holds.
std::optional<pgn::Variant> explorer_variant(std::string_view variant);

// Errors name the parameter and the value.
Result<ExplorerRequest> explorer_request_from_query(const QueryParams& params,
                                                    ExplorerPath path = ExplorerPath::kOwn);

}  // namespace bookforge::serve
