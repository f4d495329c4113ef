// Static evaluation: a tapered blend of a middlegame and an endgame score, each the sum of
// material, piece-square tables, pawn structure, passed pawns, mobility, king safety, threats
// and a few piece terms, weighted by how much non-pawn material is left.
//
// The weights live in one plain struct of ints (EvalParams) so that the tuner
// (tools/eval_tune.cpp) can read and write them as a flat array; the engine always uses the
// tuned constants in eval.cpp.
#pragma once

#include "chess/board.h"
#include "engine/score.h"

namespace bookforge::engine {

// A middlegame/endgame pair of centipawn weights.
struct EvalWeight {
  int mg = 0;
  int eg = 0;
};

// Every weight of the evaluation. Only ints, no padding: the tuner views it as int[].
// Piece-square tables are drawn from white's side: the first row is rank 8.
struct EvalParams {
  EvalWeight material[6];  // pawn .. king (the king's is zero)
  int pst_mg[6][64];
  int pst_eg[6][64];
  EvalWeight passed[8];     // by relative rank (0 = own back rank)
  EvalWeight connected[8];  // half the bonus of a defended pawn; three halves with a neighbour beside it
  int passed_weight[8];     // weight of the king-distance and free-path terms of a passed pawn
  EvalWeight isolated;
  EvalWeight isolated_open;  // extra when no enemy pawn stands in front (easy target)
  EvalWeight doubled;
  EvalWeight backward;
  EvalWeight mobility_per_square[6];  // per reachable safe square, minus the centre below
  int mobility_centre[6];
  EvalWeight no_mobility[6];
  EvalWeight bishop_pair;
  EvalWeight bad_bishop_pawn;  // per own pawn on the bishop's colour
  EvalWeight knight_outpost;
  EvalWeight bishop_outpost;
  EvalWeight rook_open_file;
  EvalWeight rook_half_open_file;
  EvalWeight rook_on_seventh;
  EvalWeight tempo;
  EvalWeight threat_by_pawn;    // per enemy piece attacked by a pawn
  EvalWeight threat_by_minor;   // per enemy rook or queen attacked by a knight or bishop
  EvalWeight threat_by_rook;    // per enemy queen attacked by a rook
  EvalWeight hanging;           // per enemy piece attacked and not defended
  EvalWeight weak_pawn;         // per enemy pawn attacked and not defended
  EvalWeight pawn_push_threat;  // per enemy piece a safe pawn push would attack
  // King safety, in "attack units": weight of each attacking piece type, and of safe checks.
  int attacker_weight[6];
  int safe_check_units[6];
  int max_attack_units;
  int shelter_missing;              // no own pawn on a file next to the king
  int shelter_rank[8];              // own pawn this far in front of the king
  int storm_distance[8];            // enemy pawn this many ranks in front of the king
  EvalWeight space;                 // per safe central square of the own half; twice when behind own pawns
  EvalWeight minor_behind_pawn;     // knight or bishop right behind a pawn (shielded, blocks it)
  EvalWeight bishop_long_diagonal;  // bishop that sees two centre squares past the pawns
  EvalWeight minor_king_distance;   // per square between a knight or bishop and its own king
  EvalWeight candidate_passed[8];   // by relative rank: unopposed, and no more enemy pawns can stop
                                    // it than own neighbours beside or behind it can support it
  EvalWeight rook_behind_passer;    // own rook behind an own passed pawn on its file
  EvalWeight king_pawn_distance;    // per square from the king to the nearest own pawn
};

// The engine's weights.
const EvalParams& default_eval_params();

// Centipawns from the point of view of the side to move. Never a mate score.
Score evaluate(const chess::Board& board);
Score evaluate(const chess::Board& board, const EvalParams& params);

// The parts evaluate() blends, from white's point of view (for the tuner): the score is
// (mg * phase + eg * eg_scale / 64 * (24 - phase)) / 24, or a draw when `drawn`.
struct EvalBreakdown {
  int mg = 0;
  int eg = 0;
  int phase = 0;      // 0 (bare kings and pawns) .. 24 (all pieces)
  int eg_scale = 64;  // out of 64: how winnable the endgame is
  bool drawn = false;
};
EvalBreakdown evaluate_breakdown(const chess::Board& board, const EvalParams& params);

// Material values for move ordering and SEE (the evaluation itself uses tapered values).
inline constexpr Score kPieceValue[7] = {100, 320, 330, 500, 950, 20000, 0};

}  // namespace bookforge::engine
