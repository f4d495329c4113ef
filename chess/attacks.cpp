#include "chess/attacks.h"

#include <bit>
#include <cstdint>

namespace bookforge::chess::attacks_detail {
namespace {

// Ray walking on a 0..63 board; used only to build tables (at compile time for the leapers,
// lines and segments, at start-up for the slider tables).
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

constexpr Bitboard leaper_attacks(int sq, const int (&deltas)[8][2], int count) {
  Bitboard b = 0;
  for (int i = 0; i < count; ++i) {
    int f = sq % 8 + deltas[i][0], r = sq / 8 + deltas[i][1];
    if (on_board(f, r)) b |= Bitboard(1) << (r * 8 + f);
  }
  return b;
}

constexpr int kKnightDeltas[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int kKingDeltas[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int kWhitePawnDeltas[8][2] = {{-1, 1}, {1, 1}};
constexpr int kBlackPawnDeltas[8][2] = {{-1, -1}, {1, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// Squares reached from sq along the four directions, stopping at (and including) blockers.
constexpr Bitboard sliding_attacks(int sq, const int (&dirs)[4][2], Bitboard occupied) {
  Bitboard b = 0;
  for (const auto& d : dirs) {
    int f = sq % 8 + d[0], r = sq / 8 + d[1];
    while (on_board(f, r)) {
      Bitboard s = Bitboard(1) << (r * 8 + f);
      b |= s;
      if (occupied & s) break;
      f += d[0];
      r += d[1];
    }
  }
  return b;
}

constexpr std::array<std::array<Bitboard, 64>, 2> make_pawn_attacks() {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (int s = 0; s < 64; ++s) {
    t[kWhite][s] = leaper_attacks(s, kWhitePawnDeltas, 2);
    t[kBlack][s] = leaper_attacks(s, kBlackPawnDeltas, 2);
  }
  return t;
}

constexpr std::array<Bitboard, 64> make_leaper_table(const int (&deltas)[8][2]) {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[s] = leaper_attacks(s, deltas, 8);
  return t;
}

// kLine[a][b]: the whole rank, file or diagonal through a and b (both included).
// kBetween[a][b]: the squares strictly between them on it. Built by walking the eight rays
// from every square once (cheap enough for any compiler's constexpr step limit).
constexpr std::array<std::array<Bitboard, 64>, 64> make_lines(bool between_only) {
  constexpr int kDirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
  std::array<std::array<Bitboard, 64>, 64> t{};
  for (int a = 0; a < 64; ++a) {
    for (int d = 0; d < 8; ++d) {
      // The full line: this ray, the opposite one (its partner in kDirs) and a itself.
      Bitboard line = Bitboard(1) << a;
      for (int k : {d, d ^ 1}) {
        for (int f = a % 8 + kDirs[k][0], r = a / 8 + kDirs[k][1]; on_board(f, r);
             f += kDirs[k][0], r += kDirs[k][1])
          line |= Bitboard(1) << (r * 8 + f);
      }
      Bitboard between = 0;
      for (int f = a % 8 + kDirs[d][0], r = a / 8 + kDirs[d][1]; on_board(f, r);
           f += kDirs[d][0], r += kDirs[d][1]) {
        t[a][r * 8 + f] = between_only ? between : line;
        between |= Bitboard(1) << (r * 8 + f);
      }
    }
  }
  return t;
}

// kPseudoAttacks[piece][s]: the squares a piece (a Piece value: colour and kind) on s attacks
// on an empty board; for pawns, their captures.
constexpr std::array<std::array<Bitboard, 64>, 16> make_pseudo_attacks() {
  std::array<std::array<Bitboard, 64>, 16> t{};
  for (Color c : {kWhite, kBlack}) {
    for (int s = 0; s < 64; ++s) {
      t[make_piece(c, kPawn)][s] = leaper_attacks(s, c == kWhite ? kWhitePawnDeltas : kBlackPawnDeltas, 2);
      t[make_piece(c, kKnight)][s] = leaper_attacks(s, kKnightDeltas, 8);
      t[make_piece(c, kBishop)][s] = sliding_attacks(s, kBishopDirs, 0);
      t[make_piece(c, kRook)][s] = sliding_attacks(s, kRookDirs, 0);
      t[make_piece(c, kQueen)][s] = t[make_piece(c, kBishop)][s] | t[make_piece(c, kRook)][s];
      t[make_piece(c, kKing)][s] = leaper_attacks(s, kKingDeltas, 8);
    }
  }
  return t;
}

// The sizes of the slider tables: the sum over squares of 2^popcount(mask).
constexpr int kBishopTableSize = 5248;
constexpr int kRookTableSize = 102400;
Bitboard bishop_table[kBishopTableSize];
Bitboard rook_table[kRookTableSize];

constexpr Bitboard edges_excluding(int sq) {
  Bitboard ranks = (kRank1BB | rank_bb(7)) & ~rank_bb(sq / 8);
  Bitboard files = (kFileABB | kFileHBB) & ~file_bb(sq % 8);
  return ranks | files;
}

// xorshift64*: a fixed seed makes the magic search (and so the tables) the same every run.
struct Prng {
  uint64_t s;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

// The attacks of a slider on `sq` along `dirs` with blockers `occupied`, from whole rays: along
// each direction, the ray less the ray beyond the first blocker (the nearest one: the lowest
// square for a direction that raises the square index, the highest for one that lowers it).
// The same sets as sliding_attacks, a few operations instead of a walk square by square, which
// keeps the table fill at start-up short.
struct Rays {
  Bitboard ray[4][64];
  bool rising[4];
};

Rays make_rays(const int (&dirs)[4][2]) {
  Rays r{};
  for (int d = 0; d < 4; ++d) {
    for (int sq = 0; sq < 64; ++sq)
      for (int f = sq % 8 + dirs[d][0], rank = sq / 8 + dirs[d][1]; on_board(f, rank);
           f += dirs[d][0], rank += dirs[d][1])
        r.ray[d][sq] |= Bitboard(1) << (rank * 8 + f);
    r.rising[d] = dirs[d][1] * 8 + dirs[d][0] > 0;
  }
  return r;
}

Bitboard ray_attacks(const Rays& r, int sq, Bitboard occupied) {
  Bitboard attacks = 0;
  for (int d = 0; d < 4; ++d) {
    Bitboard ray = r.ray[d][sq];
    if (const Bitboard blockers = ray & occupied) {
      const int first = r.rising[d] ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
      ray ^= r.ray[d][first];
    }
    attacks |= ray;
  }
  return attacks;
}

// Fills the entries for one slider kind. Each square's slice is indexed by pext(occupied,
// mask) with BMI2, otherwise by a magic multiplier found here by trial: a candidate is kept
// when no two occupancies with different attack sets collide.
void init_slider(SliderEntry* entries, Bitboard* table, const int (&dirs)[4][2]) {
  const Rays rays = make_rays(dirs);
  // One PRNG seed per rank, restarted at every square. These were picked (by running this
  // same search for seeds 1..3000) for finding all magics in about 230,000 trials instead of
  // 1.5 million with an arbitrary seed: a few tens of milliseconds at start-up.
  constexpr uint64_t kSeeds[8] = {728, 2985, 786, 2501, 2009, 2821, 1699, 255};
  Bitboard occupancies[4096], reference[4096];
  int epoch[4096] = {};
  int attempt = 0;
  Bitboard* slice = table;
  for (int sq = 0; sq < 64; ++sq) {
    SliderEntry& e = entries[sq];
    e.mask = sliding_attacks(sq, dirs, 0) & ~edges_excluding(sq);
    e.shift = unsigned(64 - popcount(e.mask));
    e.table = slice;
    e.magic = 0;
    // Enumerate all subsets of the mask (Carry-Rippler) with their attack sets.
    int size = 0;
    Bitboard subset = 0;
    do {
      occupancies[size] = subset;
      reference[size] = ray_attacks(rays, sq, subset);
      ++size;
      subset = (subset - e.mask) & e.mask;
    } while (subset);
#if BOOKFORGE_PEXT
    for (int i = 0; i < size; ++i) slice[e.index(occupancies[i])] = reference[i];
#else
    Prng prng{kSeeds[sq / 8]};
    for (bool found = false; !found;) {
      do {
        e.magic = prng.sparse();
      } while (popcount((e.mask * e.magic) >> 56) < 6);
      ++attempt;
      found = true;
      for (int i = 0; i < size && found; ++i) {
        unsigned idx = e.index(occupancies[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          slice[idx] = reference[i];
        } else if (slice[idx] != reference[i]) {
          found = false;
        }
      }
    }
#endif
    slice += size;
  }
  (void)attempt;
  (void)epoch;
  (void)kSeeds;
}

struct SliderInit {
  SliderInit() {
    init_slider(bishop_entries, bishop_table, kBishopDirs);
    init_slider(rook_entries, rook_table, kRookDirs);
  }
};

// Priority 101 is the first one available to programs: the tables exist before any other
// static initialiser (in any translation unit) can build a Board.
__attribute__((init_priority(101))) const SliderInit slider_init;

}  // namespace

SliderEntry bishop_entries[64];
SliderEntry rook_entries[64];

constinit const std::array<std::array<Bitboard, 64>, 2> kPawnAttacks = make_pawn_attacks();
constinit const std::array<Bitboard, 64> kKnightAttacks = make_leaper_table(kKnightDeltas);
constinit const std::array<Bitboard, 64> kKingAttacks = make_leaper_table(kKingDeltas);
constinit const std::array<std::array<Bitboard, 64>, 64> kBetween = make_lines(true);
constinit const std::array<std::array<Bitboard, 64>, 64> kLine = make_lines(false);
constinit const std::array<std::array<Bitboard, 64>, 16> kPseudoAttacks = make_pseudo_attacks();

}  // namespace bookforge::chess::attacks_detail
