#include "engine/eval.h"

#include <algorithm>
#include <cstdlib>

#include "engine/attacks.h"

namespace bookforge {
namespace {

// A middlegame/endgame pair; the final score blends the two by game phase.
struct S {
  int mg = 0;
  int eg = 0;
};
constexpr S operator+(S a, S b) { return {a.mg + b.mg, a.eg + b.eg}; }
constexpr S operator-(S a, S b) { return {a.mg - b.mg, a.eg - b.eg}; }
constexpr S operator-(S a) { return {-a.mg, -a.eg}; }
constexpr S operator*(S a, int k) { return {a.mg * k, a.eg * k}; }
constexpr S& operator+=(S& a, S b) { return a = a + b; }
constexpr S& operator-=(S& a, S b) { return a = a - b; }

// ---------------------------------------------------------------------------------------------
// Weights. Piece-square tables are drawn from white's side: the first row is rank 8.

constexpr S kMaterial[6] = {{85, 110}, {330, 300}, {340, 320}, {465, 530}, {960, 990}, {0, 0}};

// clang-format off
constexpr int kPawnMg[64] = {
    0,   0,   0,   0,   0,   0,   0,   0,
   35,  40,  40,  45,  45,  40,  40,  35,
   12,  14,  20,  30,  30,  20,  14,  12,
    2,   4,  10,  22,  22,  10,   4,   2,
   -2,   0,   6,  18,  18,   4,   0,  -2,
    0,  -2,   2,   6,   6,  -2,  -2,   0,
    0,   2,   2, -14, -14,   6,   6,   0,
    0,   0,   0,   0,   0,   0,   0,   0};
constexpr int kPawnEg[64] = {
    0,   0,   0,   0,   0,   0,   0,   0,
   50,  50,  45,  40,  40,  45,  50,  50,
   28,  28,  24,  20,  20,  24,  28,  28,
   14,  12,  10,   6,   6,  10,  12,  14,
    6,   4,   2,   0,   0,   2,   4,   6,
    2,   0,   0,   0,   0,   0,   0,   2,
    2,   0,   0,   0,   0,   0,   0,   2,
    0,   0,   0,   0,   0,   0,   0,   0};
constexpr int kKnightMg[64] = {
  -60, -30, -20, -15, -15, -20, -30, -60,
  -25, -10,   5,  12,  12,   5, -10, -25,
  -15,   5,  18,  26,  26,  18,   5, -15,
  -10,   6,  16,  25,  25,  16,   6, -10,
  -15,   0,  12,  18,  18,  12,   0, -15,
  -22,  -5,   8,  10,  10,   8,  -5, -22,
  -30, -15,  -5,   0,   0,  -5, -15, -30,
  -50, -25, -20, -18, -18, -20, -25, -50};
constexpr int kKnightEg[64] = {
  -40, -25, -15, -10, -10, -15, -25, -40,
  -25, -10,   0,   5,   5,   0, -10, -25,
  -15,   0,  10,  15,  15,  10,   0, -15,
  -10,   5,  15,  20,  20,  15,   5, -10,
  -10,   5,  15,  20,  20,  15,   5, -10,
  -15,   0,  10,  15,  15,  10,   0, -15,
  -25, -10,   0,   5,   5,   0, -10, -25,
  -40, -25, -15, -10, -10, -15, -25, -40};
constexpr int kBishopMg[64] = {
  -18, -10, -12, -10, -10, -12, -10, -18,
  -10,   0,   0,   0,   0,   0,   0, -10,
   -8,   4,   6,   8,   8,   6,   4,  -8,
   -6,   6,   6,  12,  12,   6,   6,  -6,
   -6,   2,  10,  12,  12,  10,   2,  -6,
   -4,  10,  10,   6,   6,  10,  10,  -4,
   -6,  12,   4,   4,   4,   4,  12,  -6,
  -20,  -8, -14,  -8,  -8, -14,  -8, -20};
constexpr int kBishopEg[64] = {
  -14,  -8,  -6,  -4,  -4,  -6,  -8, -14,
   -8,  -2,   0,   2,   2,   0,  -2,  -8,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -4,   2,   6,  10,  10,   6,   2,  -4,
   -4,   2,   6,  10,  10,   6,   2,  -4,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -8,  -2,   0,   2,   2,   0,  -2,  -8,
  -14,  -8,  -6,  -4,  -4,  -6,  -8, -14};
constexpr int kRookMg[64] = {
    6,   6,   8,  10,  10,   8,   6,   6,
   16,  20,  22,  22,  22,  22,  20,  16,
   -4,   0,   2,   4,   4,   2,   0,  -4,
   -6,  -2,   0,   2,   2,   0,  -2,  -6,
   -8,  -4,  -2,   0,   0,  -2,  -4,  -8,
  -10,  -4,  -2,   0,   0,  -2,  -4, -10,
  -14,  -6,  -2,   0,   0,  -2,  -6, -14,
   -6,  -4,   2,   8,   8,   4,  -4,  -6};
constexpr int kRookEg[64] = {
    8,   8,   8,   8,   8,   8,   8,   8,
   12,  12,  12,  12,  12,  12,  12,  12,
    4,   4,   4,   4,   4,   4,   4,   4,
    2,   2,   2,   2,   2,   2,   2,   2,
    0,   0,   0,   0,   0,   0,   0,   0,
   -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
   -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
   -6,  -4,  -2,   0,   0,  -2,  -4,  -6};
constexpr int kQueenMg[64] = {
  -20, -12, -10,  -6,  -6, -10, -12, -20,
  -12,  -8,   0,   0,   0,   0,  -8, -12,
  -10,   0,   4,   4,   4,   4,   0, -10,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -8,   2,   4,   4,   4,   4,   2,  -8,
  -10,   0,   4,   2,   2,   0,   0, -10,
  -18, -10,  -8,   0,  -6, -10, -10, -18};
constexpr int kQueenEg[64] = {
  -24, -14, -10,  -6,  -6, -10, -14, -24,
  -14,  -4,   0,   4,   4,   0,  -4, -14,
  -10,   0,   8,  12,  12,   8,   0, -10,
   -6,   4,  12,  18,  18,  12,   4,  -6,
   -6,   4,  12,  18,  18,  12,   4,  -6,
  -10,   0,   8,  12,  12,   8,   0, -10,
  -14,  -4,   0,   4,   4,   0,  -4, -14,
  -24, -14, -10,  -6,  -6, -10, -14, -24};
constexpr int kKingMg[64] = {
  -50, -55, -55, -65, -65, -55, -55, -50,
  -45, -50, -50, -60, -60, -50, -50, -45,
  -40, -45, -48, -55, -55, -48, -45, -40,
  -35, -40, -45, -50, -50, -45, -40, -35,
  -25, -32, -36, -42, -42, -36, -32, -25,
  -12, -20, -24, -30, -30, -24, -20, -12,
   12,  10,  -6, -20, -20, -10,  12,  14,
   18,  32,   8, -12,   0, -10,  34,  24};
constexpr int kKingEg[64] = {
  -55, -35, -25, -20, -20, -25, -35, -55,
  -30, -10,   0,   5,   5,   0, -10, -30,
  -20,   5,  18,  24,  24,  18,   5, -20,
  -18,   8,  24,  32,  32,  24,   8, -18,
  -20,   4,  20,  28,  28,  20,   4, -20,
  -24,  -2,  10,  18,  18,  10,  -2, -24,
  -32, -14,  -2,   4,   4,  -2, -14, -32,
  -55, -38, -28, -22, -22, -28, -38, -55};
// clang-format on

constexpr const int* kPstMg[6] = {kPawnMg, kKnightMg, kBishopMg, kRookMg, kQueenMg, kKingMg};
constexpr const int* kPstEg[6] = {kPawnEg, kKnightEg, kBishopEg, kRookEg, kQueenEg, kKingEg};

// Indexed by relative rank (0 = own back rank).
constexpr S kPassed[8] = {{0, 0}, {2, 10}, {5, 14}, {12, 28}, {28, 50}, {50, 90}, {85, 140}, {0, 0}};
// Half the bonus of a defended pawn; a pawn with a neighbour on its rank gets three halves.
constexpr S kConnected[8] = {{0, 0}, {2, 1}, {3, 2}, {5, 4}, {8, 7}, {14, 13}, {22, 20}, {0, 0}};
// Extra weight of the king-distance and free-path terms of a passed pawn, by relative rank.
constexpr int kPassedWeight[8] = {0, 0, 0, 1, 3, 6, 10, 0};

constexpr S kIsolated{-10, -14};
constexpr S kIsolatedOpen{-8, -6};  // extra when no enemy pawn stands in front (easy target)
constexpr S kDoubled{-10, -22};
constexpr S kBackward{-8, -10};

// Mobility: bonus per reachable safe square, centred so that average mobility scores about zero.
constexpr S kMobilityPerSquare[6] = {{0, 0}, {5, 5}, {5, 6}, {3, 6}, {2, 4}, {0, 0}};
constexpr int kMobilityCentre[6] = {0, 4, 6, 6, 12, 0};
constexpr S kNoMobility[6] = {{0, 0}, {-20, -20}, {-20, -20}, {-10, -10}, {-10, -10}, {0, 0}};

constexpr S kBishopPair{30, 50};
constexpr S kBadBishopPawn{-2, -5};  // per own pawn on the bishop's colour
constexpr S kKnightOutpost{24, 12};
constexpr S kBishopOutpost{12, 6};
constexpr S kRookOpenFile{26, 10};
constexpr S kRookHalfOpenFile{12, 6};
constexpr S kRookOnSeventh{12, 24};
constexpr S kTempo{14, 6};

constexpr S kThreatByPawn{55, 40};        // per enemy piece attacked by a pawn
constexpr S kThreatByMinor{30, 24};       // per enemy rook or queen attacked by a knight or bishop
constexpr S kThreatByRook{28, 14};        // per enemy queen attacked by a rook
constexpr S kHanging{32, 20};             // per enemy piece attacked and not defended
constexpr S kWeakPawn{4, 14};             // per enemy pawn attacked and not defended
constexpr S kPawnPushThreat{14, 12};      // per enemy piece a safe pawn push would attack

// King safety, in "attack units": weight of each attacking piece type, and of safe checks.
constexpr int kAttackerWeight[6] = {0, 2, 2, 3, 5, 0};
constexpr int kSafeCheckUnits[6] = {0, 3, 2, 4, 3, 0};
constexpr int kMaxAttackUnits = 24;

constexpr int kShelterMissing = 36;      // no own pawn on a file next to the king
constexpr int kShelterRank[8] = {0, 0, 10, 22, 30, 34, 36, 36};  // own pawn this far in front
constexpr int kStormDistance[8] = {0, 8, 24, 14, 6, 0, 0, 0};    // enemy pawn this many ranks in front

constexpr int kPhaseWeight[6] = {0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;

// ---------------------------------------------------------------------------------------------
// Masks

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard file_bb(int f) { return kFileA << f; }
constexpr Bitboard rank_bb(int r) { return Bitboard(0xFF) << (8 * r); }
constexpr int relative_rank(Color c, Square s) { return c == kWhite ? rank_of(s) : 7 - rank_of(s); }
constexpr Square forward_square(Color c, Square s) { return Square(c == kWhite ? s + 8 : s - 8); }
constexpr Bitboard shift_forward(Color c, Bitboard b) { return c == kWhite ? b << 8 : b >> 8; }

constexpr Bitboard pawn_attack_bb(Color c, Bitboard pawns) {
  return c == kWhite ? ((pawns & ~kFileA) << 7) | ((pawns & ~kFileH) << 9)
                     : ((pawns & ~kFileA) >> 9) | ((pawns & ~kFileH) >> 7);
}

int distance(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
int centre_distance(Square s) {
  const int f = file_of(s), r = rank_of(s);
  return std::max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

struct Masks {
  Bitboard adjacent_files[8];
  Bitboard forward_ranks[2][8];  // ranks strictly in front of rank r, seen by colour c
  Masks() {
    for (int f = 0; f < 8; ++f)
      adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    for (int r = 0; r < 8; ++r) {
      forward_ranks[kWhite][r] = forward_ranks[kBlack][r] = 0;
      for (int q = r + 1; q < 8; ++q) forward_ranks[kWhite][r] |= rank_bb(q);
      for (int q = 0; q < r; ++q) forward_ranks[kBlack][r] |= rank_bb(q);
    }
  }
};
const Masks kMasks;

Bitboard forward_file(Color c, Square s) { return kMasks.forward_ranks[c][rank_of(s)] & file_bb(file_of(s)); }
Bitboard passed_span(Color c, Square s) {
  return kMasks.forward_ranks[c][rank_of(s)] & (file_bb(file_of(s)) | kMasks.adjacent_files[file_of(s)]);
}
Bitboard attack_span(Color c, Square s) {
  return kMasks.forward_ranks[c][rank_of(s)] & kMasks.adjacent_files[file_of(s)];
}

// ---------------------------------------------------------------------------------------------

class Evaluation {
 public:
  explicit Evaluation(const Board& b) : b_(b) {}
  Score run();

 private:
  void init(Color us);
  S material_and_squares(Color us);
  S pawns(Color us);
  template <PieceType kPt>
  S pieces(Color us);
  S king_safety(Color us);
  S threats(Color us);
  S passed_pawns(Color us);
  int endgame_scale(int eg) const;

  const Board& b_;
  Bitboard attacked_[2][6] = {};  // by colour and piece type
  Bitboard attacked_all_[2] = {};
  Bitboard attacked_twice_[2] = {};
  Bitboard mobility_area_[2] = {};
  Bitboard king_zone_[2] = {};
  Bitboard passed_[2] = {};
  int king_attackers_[2] = {};       // pieces of colour c attacking the enemy king zone
  int king_attack_units_[2] = {};
};

void Evaluation::init(Color us) {
  const Color them = ~us;
  const Square ksq = b_.king_square(us);
  attacked_[us][kPawn] = pawn_attack_bb(us, b_.pieces(us, kPawn));
  attacked_[us][kKing] = king_attacks(ksq);
  attacked_all_[us] = attacked_[us][kPawn] | attacked_[us][kKing];
  attacked_twice_[us] = attacked_[us][kPawn] & attacked_[us][kKing];
  // Safe squares to move to: not blocked by own pawns or king, not covered by enemy pawns.
  mobility_area_[us] = ~(b_.pieces(us, kPawn) | b_.pieces(us, kKing) | pawn_attack_bb(them, b_.pieces(them, kPawn)));
  // The king's neighbourhood plus the rank in front of it (where attacks gather).
  Bitboard zone = king_attacks(ksq) | square_bb(ksq);
  king_zone_[us] = zone | shift_forward(us, zone);
}

S Evaluation::material_and_squares(Color us) {
  S s;
  for (int pt = kPawn; pt <= kKing; ++pt) {
    Bitboard bb = b_.pieces(us, PieceType(pt));
    while (bb) {
      const Square sq = pop_lsb(bb);
      const int idx = us == kWhite ? sq ^ 56 : sq;  // tables are drawn with rank 8 first
      s += kMaterial[pt] + S{kPstMg[pt][idx], kPstEg[pt][idx]};
    }
  }
  if (popcount(b_.pieces(us, kBishop)) >= 2) s += kBishopPair;
  return s;
}

S Evaluation::pawns(Color us) {
  const Color them = ~us;
  const Bitboard ours = b_.pieces(us, kPawn);
  const Bitboard theirs = b_.pieces(them, kPawn);
  S s;
  Bitboard bb = ours;
  while (bb) {
    const Square sq = pop_lsb(bb);
    const int r = relative_rank(us, sq);
    const int f = file_of(sq);
    const Bitboard neighbours = ours & kMasks.adjacent_files[f];
    const Bitboard phalanx = neighbours & rank_bb(rank_of(sq));
    const Bitboard support = neighbours & rank_bb(rank_of(sq) + (us == kWhite ? -1 : 1));
    const bool opposed = (theirs & forward_file(us, sq)) != 0;

    if (!(theirs & passed_span(us, sq)) && !(ours & forward_file(us, sq))) passed_[us] |= square_bb(sq);
    if (ours & forward_file(us, sq)) s += kDoubled;

    if (phalanx | support) {
      s += kConnected[r] * (phalanx ? 3 : 2);
    } else if (!neighbours) {
      s += kIsolated;
      if (!opposed) s += kIsolatedOpen;
    } else {
      // Backward: every neighbour is ahead of it and its stop square is covered by an enemy pawn.
      const Bitboard behind_or_level = neighbours & ~kMasks.forward_ranks[us][rank_of(sq)];
      const Square stop = forward_square(us, sq);
      if (!behind_or_level && (pawn_attack_bb(them, theirs) & square_bb(stop))) s += kBackward;
    }
  }
  return s;
}

template <PieceType kPt>
S Evaluation::pieces(Color us) {
  const Color them = ~us;
  const Bitboard occupied = b_.pieces();
  S s;
  Bitboard bb = b_.pieces(us, kPt);
  while (bb) {
    const Square sq = pop_lsb(bb);
    // Sliders see through their own queen (bishops) or own heavy pieces (rooks): batteries.
    Bitboard att;
    if constexpr (kPt == kBishop)
      att = bishop_attacks(sq, occupied ^ b_.pieces(us, kQueen));
    else if constexpr (kPt == kRook)
      att = rook_attacks(sq, occupied ^ b_.pieces(us, kQueen) ^ b_.pieces(us, kRook));
    else
      att = piece_attacks(kPt, sq, occupied);

    attacked_twice_[us] |= attacked_all_[us] & att;
    attacked_all_[us] |= att;
    attacked_[us][kPt] |= att;

    const int mobility = popcount(att & mobility_area_[us]);
    s += kMobilityPerSquare[kPt] * (mobility - kMobilityCentre[kPt]);
    if (mobility == 0) s += kNoMobility[kPt];

    if (const Bitboard zone_hits = att & king_zone_[them]) {
      ++king_attackers_[us];
      king_attack_units_[us] += kAttackerWeight[kPt] + popcount(zone_hits) / 2;
    }

    if constexpr (kPt == kKnight || kPt == kBishop) {
      // Outpost: on ranks 4-6, defended by a pawn, and no enemy pawn can ever chase it away.
      const int r = relative_rank(us, sq);
      if (r >= 3 && r <= 5 && (attacked_[us][kPawn] & square_bb(sq)) &&
          !(b_.pieces(them, kPawn) & attack_span(us, sq)))
        s += kPt == kKnight ? kKnightOutpost : kBishopOutpost;
    }
    if constexpr (kPt == kBishop) {
      const Bitboard same_colour = (square_bb(sq) & kDarkSquares) ? kDarkSquares : ~kDarkSquares;
      s += kBadBishopPawn * popcount(b_.pieces(us, kPawn) & same_colour);
    }
    if constexpr (kPt == kRook) {
      const Bitboard file = file_bb(file_of(sq));
      if (!(b_.pieces(us, kPawn) & file)) s += (b_.pieces(them, kPawn) & file) ? kRookHalfOpenFile : kRookOpenFile;
      if (relative_rank(us, sq) == 6 &&
          (relative_rank(us, b_.king_square(them)) == 7 || (b_.pieces(them, kPawn) & rank_bb(rank_of(sq)))))
        s += kRookOnSeventh;
    }
  }
  return s;
}

S Evaluation::king_safety(Color us) {
  const Color them = ~us;
  const Square ksq = b_.king_square(us);
  S s;

  // Pawn shelter and storm on the king's file and its neighbours (the edge files count as
  // their inner neighbour's group).
  int shelter = 0;
  const int centre_file = std::clamp(file_of(ksq), 1, 6);
  const Bitboard ahead = kMasks.forward_ranks[us][rank_of(ksq)] | rank_bb(rank_of(ksq));
  for (int f = centre_file - 1; f <= centre_file + 1; ++f) {
    const Bitboard own = b_.pieces(us, kPawn) & file_bb(f) & ahead;
    const Bitboard enemy = b_.pieces(them, kPawn) & file_bb(f) & ahead;
    if (!own) {
      shelter += kShelterMissing;
    } else {
      const Square nearest = us == kWhite ? lsb(own) : Square(63 - __builtin_clzll(own));
      shelter += kShelterRank[std::abs(rank_of(nearest) - rank_of(ksq))];
    }
    if (enemy) {
      const Square nearest = us == kWhite ? lsb(enemy) : Square(63 - __builtin_clzll(enemy));
      const int storm = kStormDistance[std::abs(rank_of(nearest) - rank_of(ksq))];
      // A storming pawn already blocked by an own pawn opens nothing.
      const bool blocked = own & square_bb(Square(us == kWhite ? nearest - 8 : nearest + 8));
      shelter += blocked ? storm / 2 : storm;
    }
  }
  s.mg -= shelter;

  // Attack units: attackers of the zone, the squares they hit, safe checks, weak squares.
  const int attackers = king_attackers_[them];
  const bool enemy_queen = b_.pieces(them, kQueen) != 0;
  if (attackers >= 2) {  // a lone piece, even a queen, mates nobody
    int units = king_attack_units_[them];
    const Bitboard occupied = b_.pieces();
    // Squares where a check cannot be answered by capturing the checker with anything but
    // the king: attacked by them, not defended by us (or only by our king or queen).
    const Bitboard safe = ~b_.pieces(them) & (~attacked_all_[us] | (attacked_twice_[them] & ~attacked_twice_[us] &
                                                                    (attacked_[us][kKing] | attacked_[us][kQueen])));
    const Bitboard knight_checks = knight_attacks(ksq) & attacked_[them][kKnight];
    const Bitboard bishop_lines = bishop_attacks(ksq, occupied);
    const Bitboard rook_lines = rook_attacks(ksq, occupied);
    if (knight_checks & safe) units += kSafeCheckUnits[kKnight];
    if (bishop_lines & attacked_[them][kBishop] & safe) units += kSafeCheckUnits[kBishop];
    if (rook_lines & attacked_[them][kRook] & safe) units += kSafeCheckUnits[kRook];
    if ((bishop_lines | rook_lines) & attacked_[them][kQueen] & safe) units += kSafeCheckUnits[kQueen];
    const Bitboard weak = king_zone_[us] & attacked_all_[them] & ~attacked_twice_[us] &
                          (~attacked_all_[us] | attacked_[us][kKing] | attacked_[us][kQueen]);
    units += popcount(weak);
    units += shelter / 16;
    if (!enemy_queen) units /= 2;
    units = std::min(units, kMaxAttackUnits);
    s.mg -= units * units * 3 / 2;
    s.eg -= units * 2;
  }
  return s;
}

S Evaluation::threats(Color us) {
  const Color them = ~us;
  S s;
  const Bitboard their_pieces = b_.pieces(them) & ~b_.pieces(them, kPawn) & ~b_.pieces(them, kKing);
  s += kThreatByPawn * popcount(attacked_[us][kPawn] & their_pieces);
  const Bitboard heavy = b_.pieces(them, kRook) | b_.pieces(them, kQueen);
  s += kThreatByMinor * popcount((attacked_[us][kKnight] | attacked_[us][kBishop]) & heavy);
  s += kThreatByRook * popcount(attacked_[us][kRook] & b_.pieces(them, kQueen));
  const Bitboard undefended = ~attacked_all_[them];
  s += kHanging * popcount(their_pieces & attacked_all_[us] & undefended);
  s += kWeakPawn * popcount(b_.pieces(them, kPawn) & attacked_all_[us] & undefended);

  // Pawn pushes to a safe square that would attack a piece.
  const Bitboard empty = ~b_.pieces();
  Bitboard pushes = shift_forward(us, b_.pieces(us, kPawn)) & empty;
  const Bitboard third = rank_bb(us == kWhite ? 2 : 5);
  pushes |= shift_forward(us, pushes & third) & empty;
  pushes &= ~attacked_[them][kPawn] & (attacked_all_[us] | ~attacked_all_[them]);
  s += kPawnPushThreat * popcount(pawn_attack_bb(us, pushes) & their_pieces);
  return s;
}

S Evaluation::passed_pawns(Color us) {
  const Color them = ~us;
  S s;
  Bitboard bb = passed_[us];
  while (bb) {
    const Square sq = pop_lsb(bb);
    const int r = relative_rank(us, sq);
    s += kPassed[r];
    const int w = kPassedWeight[r];
    if (!w) continue;
    const Square stop = forward_square(us, sq);
    // Kings: the defender wants to be in front of the pawn, the attacker beside it.
    s.eg += (std::min(distance(b_.king_square(them), stop), 5) * 5 -
             std::min(distance(b_.king_square(us), stop), 5) * 2) * w;
    if (b_.piece_on(stop) == kNoPiece) {
      const Bitboard path = forward_file(us, sq);
      const Bitboard unsafe = path & (attacked_all_[them] | b_.pieces(them));
      int k = !unsafe ? 16 : !(unsafe & square_bb(stop)) ? 8 : 0;
      if ((path & attacked_all_[us]) == path) k += 3;
      s += S{k * w / 2, k * w};
    }
    // Rule of the square: against a bare king (pawns only), a pawn the king cannot catch queens.
    const int npm_them = popcount(b_.pieces(them) & ~b_.pieces(them, kPawn)) - 1;
    if (npm_them == 0 && !(forward_file(us, sq) & b_.pieces())) {
      const Square promo = make_square(file_of(sq), us == kWhite ? 7 : 0);
      const int pawn_moves = 7 - std::max(r, 2);  // a pawn on its start rank double-steps
      const int king_moves = distance(b_.king_square(them), promo) - (b_.side_to_move() == them ? 1 : 0);
      if (king_moves > pawn_moves) s.eg += 400;
    }
  }
  return s;
}

// Scales the endgame score toward a draw where material says the stronger side cannot win.
// Returns a factor out of 64.
int Evaluation::endgame_scale(int eg) const {
  const Color strong = eg > 0 ? kWhite : kBlack;
  const Color weak = ~strong;
  auto npm = [&](Color c) {
    return popcount(b_.pieces(c, kKnight)) * 320 + popcount(b_.pieces(c, kBishop)) * 330 +
           popcount(b_.pieces(c, kRook)) * 500 + popcount(b_.pieces(c, kQueen)) * 950;
  };
  const int strong_npm = npm(strong), weak_npm = npm(weak);
  if (!b_.pieces(strong, kPawn)) {
    if (strong_npm < 500) return 0;                                          // a lone minor
    if (strong_npm == 640 && b_.pieces(strong, kKnight) == (b_.pieces(strong) & ~b_.pieces(strong, kKing)))
      return 0;                                                              // two knights
    if (strong_npm - weak_npm <= 330) return 8;                              // e.g. rook vs minor
  }
  // Opposite-coloured bishops and nothing else: the defender blockades on the other colour.
  const Bitboard wb = b_.pieces(kWhite, kBishop), bb = b_.pieces(kBlack, kBishop);
  if (strong_npm == 330 && weak_npm == 330 && popcount(wb) == 1 && popcount(bb) == 1 &&
      bool(wb & kDarkSquares) != bool(bb & kDarkSquares))
    return 24;
  return 64;
}

Score Evaluation::run() {
  // Positions no one can win: bare kings, or a single minor piece and nothing else.
  if (!b_.pieces(kPawn) && !b_.pieces(kRook) && !b_.pieces(kQueen) &&
      popcount(b_.pieces(kKnight) | b_.pieces(kBishop)) <= 1)
    return kScoreDraw;

  init(kWhite);
  init(kBlack);

  S total = material_and_squares(kWhite) - material_and_squares(kBlack);
  total += pawns(kWhite) - pawns(kBlack);
  total += pieces<kKnight>(kWhite) - pieces<kKnight>(kBlack);
  total += pieces<kBishop>(kWhite) - pieces<kBishop>(kBlack);
  total += pieces<kRook>(kWhite) - pieces<kRook>(kBlack);
  total += pieces<kQueen>(kWhite) - pieces<kQueen>(kBlack);
  total += king_safety(kWhite) - king_safety(kBlack);
  total += threats(kWhite) - threats(kBlack);
  total += passed_pawns(kWhite) - passed_pawns(kBlack);
  total += b_.side_to_move() == kWhite ? kTempo : -kTempo;

  // Mop-up: with a decisive material edge against a pawnless side, drive the bare king to the
  // edge and bring the own king closer (the search alone is too short-sighted for this).
  for (Color strong : {kWhite, kBlack}) {
    const Color weak = ~strong;
    const int edge = (popcount(b_.pieces(strong)) - popcount(b_.pieces(strong, kPawn))) -
                     (popcount(b_.pieces(weak)) - popcount(b_.pieces(weak, kPawn)));
    if (!b_.pieces(weak, kPawn) && popcount(b_.pieces(weak)) == 1 && edge >= 1 &&
        (b_.pieces(strong, kRook) | b_.pieces(strong, kQueen) | b_.pieces(strong, kPawn))) {
      const int push = 10 * centre_distance(b_.king_square(weak)) +
                       4 * (7 - distance(b_.king_square(strong), b_.king_square(weak)));
      total.eg += strong == kWhite ? push : -push;
    }
  }

  int phase = 0;
  for (int pt = kKnight; pt <= kQueen; ++pt) phase += kPhaseWeight[pt] * popcount(b_.pieces(PieceType(pt)));
  phase = std::min(phase, kMaxPhase);
  const int eg = total.eg * endgame_scale(total.eg) / 64;
  const int blended = (total.mg * phase + eg * (kMaxPhase - phase)) / kMaxPhase;
  return b_.side_to_move() == kWhite ? blended : -blended;
}

}  // namespace

Score evaluate(const Board& board) { return Evaluation(board).run(); }

}  // namespace bookforge
