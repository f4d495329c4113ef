#include "store/player_explore.h"

#include <algorithm>
#include <map>

#include "chess/attacks.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"

namespace bookforge::store {
namespace {

// What a position's pieces and pawns say about the positions a game can still reach: pieces
// and pawns never come back, and while no pawn leaves the board a side's pawns only advance.
struct Material {
  int pieces = 0;
  int pawns = 0;
  int advance[2] = {0, 0};  // each side's pawns' ranks summed, counted from its own side

  explicit Material(const chess::Board& b) {
    pieces = chess::popcount(b.pieces());
    pawns = chess::popcount(b.pieces(chess::kPawn));
    for (chess::Color c : {chess::kWhite, chess::kBlack})
      for (chess::Bitboard p = b.pieces(c, chess::kPawn); p; p &= p - 1) {
        const int rank = chess::rank_of(chess::lsb(p));
        advance[c] += c == chess::kWhite ? rank : 7 - rank;
      }
  }
  // Whether a game now at `now` can no longer reach `target`.
  static bool past(const Material& now, const Material& target) {
    if (now.pieces < target.pieces || now.pawns < target.pawns) return true;
    return now.pawns == target.pawns && (now.advance[chess::kWhite] > target.advance[chess::kWhite] ||
                                         now.advance[chess::kBlack] > target.advance[chess::kBlack]);
  }
};

struct MoveFigures {  // a move's figures as the walk adds them up
  PlayerMove move;
  uint64_t rated_opponents = 0, opponent_sum = 0;
  size_t first_game = 0;  // index in the games read
};

}  // namespace

Result<uint32_t> parse_modes(std::string_view text) {
  uint32_t modes = 0;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (item == "rated")
      modes |= 1u << uint32_t(GameMode::kRated);
    else if (item == "casual")
      modes |= 1u << uint32_t(GameMode::kCasual);
    else
      return Error{"--modes: '" + std::string(item) + "' is not a mode (rated, casual)"};
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return modes;
}

Result<PlayerExploration> explore_player(Store& store, const chess::Board& board, const PlayerQuery& query) {
  Result<std::vector<PlayerGame>> games = store.games_of_player(query.player, query.as_white);
  if (!games) return games.error();
  Result<uint64_t> without_moves = store.games_without_moves();
  if (!without_moves) return without_moves.error();
  Result<std::optional<CountingSettings>> settings = store.settings();
  if (!settings) return settings.error();
  const bool count_repeats = *settings && (*settings)->count_repeats;

  PlayerExploration out;
  out.key = board.key();
  out.games_without_moves = *without_moves;
  const Material target(board);
  const chess::Board start;
  std::map<uint16_t, MoveFigures> by_move;
  std::vector<std::pair<size_t, uint16_t>> through;  // games that played on from here, their move
  for (size_t i = 0; i < games->size(); ++i) {
    const PlayerGame& g = (*games)[i];
    if (!query.filter.accepts(g.slice)) continue;
    if (query.modes != 0 && !(query.modes >> uint32_t(g.mode) & 1)) continue;
    ++out.player_games;
    chess::Board b = start;
    std::vector<uint16_t> played;  // moves this game played from the position
    for (size_t at = 0; at + 1 < g.moves.size(); at += 2) {
      const uint16_t pg = uint16_t(uint8_t(g.moves[at]) | uint8_t(g.moves[at + 1]) << 8);
      if (b.key() == out.key &&
          (count_repeats || std::find(played.begin(), played.end(), pg) == played.end()))
        played.push_back(pg);
      const chess::Move m = chess::polyglot_to_move(b, pg);
      if (m == chess::Move::none()) break;  // not this store's game: its moves were checked when added
      chess::UndoInfo undo;
      b.make_move(m, undo);
      if (Material::past(Material(b), target)) break;
    }
    if (played.empty()) continue;
    through.push_back({i, played.front()});
    for (uint16_t pg : played) {
      auto [it, fresh] = by_move.try_emplace(pg);
      MoveFigures& t = it->second;
      if (fresh) t.first_game = i;
      t.move.polyglot_move = pg;
      ++t.move.games;
      t.move.white += g.outcome == pgn::Outcome::kWhiteWins;
      t.move.draws += g.outcome == pgn::Outcome::kDraw;
      t.move.black += g.outcome == pgn::Outcome::kBlackWins;
      if (g.opponent_elo) ++t.rated_opponents, t.opponent_sum += g.opponent_elo;
      t.move.last_date = std::max(t.move.last_date, g.date);
    }
  }

  for (auto& [pg, t] : by_move) {
    PlayerMove& m = t.move;
    m.move = chess::polyglot_to_move(board, pg);
    if (m.move == chess::Move::none()) continue;  // cannot happen: the walk made it here
    m.uci = chess::move_to_uci(m.move);
    m.san = chess::move_to_san(board, m.move);
    const uint64_t decided = m.white + m.draws + m.black;
    const double wins = double(query.as_white ? m.white : m.black);
    const double losses = double(query.as_white ? m.black : m.white);
    if (decided > 0) m.score_percent = 100.0 * (wins + 0.5 * double(m.draws)) / double(decided);
    if (t.rated_opponents > 0) {
      m.avg_opponent_rating = double(t.opponent_sum) / double(t.rated_opponents);
      if (decided > 0) m.performance = *m.avg_opponent_rating + 400.0 * (wins - losses) / double(decided);
    }
    if (m.games == 1) {
      Result<std::optional<GameRecord>> only = store.game((*games)[t.first_game].fingerprint);
      if (!only) return only.error();
      m.only_game = *only;
    }
    chess::Board after = board;
    chess::UndoInfo undo;
    after.make_move(m.move, undo);
    m.after_key = after.key();
    out.games += m.games;
    out.white += m.white;
    out.draws += m.draws;
    out.black += m.black;
    out.moves.push_back(std::move(m));
  }
  std::sort(out.moves.begin(), out.moves.end(), [](const PlayerMove& a, const PlayerMove& b) {
    return a.games != b.games ? a.games > b.games : a.uci < b.uci;
  });
  // The newest first, their full records read for as many as are listed.
  std::sort(through.begin(), through.end(), [&](const auto& a, const auto& b) {
    const PlayerGame &ga = (*games)[a.first], &gb = (*games)[b.first];
    return ga.date != gb.date ? ga.date > gb.date : int64_t(ga.fingerprint) < int64_t(gb.fingerprint);
  });
  out.recent_game_count = through.size();
  for (size_t n = 0; n < through.size() && n < query.max_recent_games; ++n) {
    Result<std::optional<GameRecord>> game = store.game((*games)[through[n].first].fingerprint);
    if (!game) return game.error();
    if (!*game) continue;
    out.recent_games.push_back(std::move(**game));
    out.recent_game_moves.push_back(chess::move_to_uci(chess::polyglot_to_move(board, through[n].second)));
  }
  return out;
}

}  // namespace bookforge::store
