// Where games left the store's tree (`db novelty`): each game of some PGN is replayed and walked
// through the store move by move, up to the store's max-ply, until a move that fewer than
// min_games of the store's games played from that position (1: no game, the move is new to the
// store). Positions are the store's, so a move counts the games that reached the position by any
// move order, as the explorer shows them (store/explore.h).
//
// For every game the walk keeps its path: each move with the counts of the position before it
// and of the move itself, the last one being the novelty, and the top games of the position the
// novelty was played from. A game whose every move (within max-ply) is in the tree is reported
// as such. Bad games (an illegal move, a broken [FEN]) are not walked: they are in the read's
// statistics, every one of them, with file, game number and line (pgn/read_stats.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "counts/slice.h"
#include "pgn/pipeline_options.h"
#include "pgn/read_stats.h"
#include "store/explore.h"
#include "store/game_record.h"
#include "store/store.h"

namespace bookforge::store {

// One move of a game with the store's figures: the games of the position it was played from
// (over all its moves) and the move as the explorer shows it there (store/explore.h), every
// count 0 when no game played it.
struct PathMove {
  int ply = 0;          // the move's ply in the game: 1 for its first move
  int move_number = 0;  // the fullmove number the move is played at
  bool black_moves = false;
  uint64_t position_games = 0;
  ExploredMove move;
};

struct GameNovelty {
  GameRecord game;                    // players, ratings, result, date, event, site; number in its file
  std::string file;                   // its input, as given
  uint64_t global_number = 0;         // 1-based over every game of the inputs, read or not
  std::vector<PathMove> path;         // the moves walked; with a novelty, it is the last
  bool left_tree = false;             // path.back() is the novelty
  bool reached_max_ply = false;       // stayed in the tree up to the store's max-ply
  std::vector<GameRecord> top_games;  // with a novelty: the top games of the position before it
};

struct NoveltyOptions {
  // The games to walk; read on one thread, in input order. Its max_ply is set to the store's.
  pgn::PipelineOptions pipeline;
  counts::SliceFilter filter;  // the store's games that count
  uint64_t min_games = 1;      // a move fewer games played leaves the tree
};

struct NoveltyReport {
  pgn::ReadStats read;  // bad_examples holds every bad game
  int max_ply = 0;      // the store's, 0 for none
};

// Walks every game of the options' inputs through `store`, handing each result to `on_game` in
// input order as soon as it is known (bad games are left to the report). Fails on an I/O or
// store error, or on a store nothing was added to.
Result<NoveltyReport> find_novelties(Store& store, NoveltyOptions options,
                                     const std::function<void(const GameNovelty&)>& on_game);

// The same walk for one game given as PGN text (the explorer page's pasted game; its file is
// `origin`), read as pgn/replay_text.h reads it. Fails for a bad game (naming the reason), on
// a store error, or on a store nothing was added to.
Result<GameNovelty> find_novelty_in_text(Store& store, std::string_view pgn_text, const std::string& origin,
                                         const counts::SliceFilter& filter, uint64_t min_games);

}  // namespace bookforge::store
