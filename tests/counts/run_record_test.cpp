// The record of runs and counts files: one game's counts in the short form, every other entry in
// the full one, each read back exactly; a record that put_run_record never writes is refused.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "counts/run_record.h"

namespace bookforge::counts {
namespace {

struct Written {
  std::vector<uint8_t> bytes;
  TallyEntry back;
  bool read = false;
};

Written round_trip(const TallyEntry& e, uint64_t previous_key = 0) {
  Written w;
  w.bytes.resize(kMaxRunRecord);
  w.bytes.resize(put_run_record(w.bytes.data(), e, previous_key));
  const uint8_t* p = w.bytes.data();
  w.read = get_run_record(p, w.bytes.data() + w.bytes.size(), w.back, previous_key);
  EXPECT_EQ(p, w.read ? w.bytes.data() + w.bytes.size() : w.bytes.data());
  return w;
}

// Where the shape byte is: after the key's delta (a varint) and the move.
size_t shape_at(const TallyEntry& e, uint64_t previous_key = 0) {
  uint8_t delta[kMaxVarintBytes];
  return put_varint(delta, e.key - previous_key) + 2;
}

TallyEntry one_game(pgn::Outcome outcome, uint16_t elo, uint16_t opponent_elo, uint32_t slice, uint16_t ply) {
  GamePly g;
  g.outcome = outcome;
  g.elo = elo;
  g.opponent_elo = opponent_elo;
  g.slice = slice;
  g.game_ply = ply;
  TallyEntry e = TallyEntry::of_game(g);
  e.key = 0x463b96181691fc9cull;
  e.move = 0x0c1c;
  return e;
}

TEST(RunRecord, EveryOneGameEntryRoundTripsInTheShortForm) {
  for (pgn::Outcome outcome :
       {pgn::Outcome::kWhiteWins, pgn::Outcome::kDraw, pgn::Outcome::kBlackWins, pgn::Outcome::kUnknown})
    for (uint16_t elo : {0, 1, 2400, 65535})
      for (uint16_t opponent : {0, 1800, 65535})
        for (uint32_t slice : {0u, 7u, 0xffffffffu})
          for (uint16_t ply : {0, 1, 59, 65535}) {
            const TallyEntry e = one_game(outcome, elo, opponent, slice, ply);
            GamePly g;
            ASSERT_TRUE(e.as_one_game(g));
            const Written w = round_trip(e, 0x1234);
            ASSERT_TRUE(w.read);
            EXPECT_EQ(w.back, e);
            EXPECT_TRUE(w.bytes[shape_at(e, 0x1234)] & run_shape::kOneGame);
          }
}

TEST(RunRecord, TheShortFormIsSmallerThanTheFullOne) {
  const TallyEntry one = one_game(pgn::Outcome::kDraw, 2450, 0, 0, 12);
  TallyEntry two = one;
  two.add(one);
  const Written a = round_trip(one), b = round_trip(two);
  EXPECT_LT(a.bytes.size() + 3, b.bytes.size());
}

TEST(RunRecord, EntriesThatAreNotOneGameKeepTheFullForm) {
  const TallyEntry base = one_game(pgn::Outcome::kWhiteWins, 2100, 2000, 3, 9);
  std::vector<TallyEntry> near;
  TallyEntry e = base;
  e.rated_games = 0;  // an Elo summed without a rated game
  near.push_back(e);
  e = base;
  e.draws = 1;  // two results in one game
  near.push_back(e);
  e = base;
  e.rating_sum = 70000;  // more than one game's Elo
  e.rated_games = 1;
  near.push_back(e);
  e = base;
  e.games = 1;
  e.white_wins = 0;  // a game without a result but counted as rated twice
  e.opponents_rated = 2;
  near.push_back(e);
  e = base;
  e.first_ply = 0xffff;
  e.games = 2;
  near.push_back(e);
  for (const TallyEntry& x : near) {
    GamePly g;
    EXPECT_FALSE(x.as_one_game(g));
    const Written w = round_trip(x);
    ASSERT_TRUE(w.read);
    EXPECT_EQ(w.back, x);
    EXPECT_FALSE(w.bytes[shape_at(x)] & run_shape::kOneGame);
  }
}

TEST(RunRecord, ARecordCutShortOrWithAnUnknownShapeIsRefused) {
  const TallyEntry e = one_game(pgn::Outcome::kBlackWins, 1500, 1600, 2, 30);
  Written w = round_trip(e);
  ASSERT_TRUE(w.read);
  for (size_t cut = 0; cut < w.bytes.size(); ++cut) {
    const uint8_t* p = w.bytes.data();
    TallyEntry back;
    EXPECT_FALSE(get_run_record(p, w.bytes.data() + cut, back, 0)) << cut;
    EXPECT_EQ(p, w.bytes.data());
  }
  for (uint8_t bad : {uint8_t(0x40), uint8_t(0x80), uint8_t(0x04), uint8_t(0x10)}) {
    std::vector<uint8_t> bytes = w.bytes;
    bytes[shape_at(e)] = bad;  // the full form has no outcome or Elo bits; no form has bits 6 and 7
    const uint8_t* p = bytes.data();
    TallyEntry back;
    EXPECT_FALSE(get_run_record(p, bytes.data() + bytes.size(), back, 0)) << int(bad);
  }
}

// The keys' deltas are written and read a word at a time: the same bytes as the plain varint,
// for every length (each power of two and its neighbours, and random values of every width),
// read back from buffers that end right after the varint and from ones with bytes after it.
TEST(Varint, TheLongFormWritesAndReadsThePlainBytes) {
  std::vector<uint64_t> values = {0, 1, 0x7f, 0x80, ~uint64_t(0)};
  for (int bit = 0; bit < 64; ++bit)
    for (int64_t d : {-1, 0, 1}) values.push_back((uint64_t(1) << bit) + uint64_t(d));
  std::mt19937_64 random(20261127);
  for (int width = 1; width <= 64; ++width)
    for (int i = 0; i < 50; ++i) values.push_back(random() >> (64 - width));
  for (uint64_t v : values) {
    uint8_t plain[kMaxVarintBytes + 8] = {};
    uint8_t fast[kMaxVarintBytes + 8];
    std::fill(std::begin(fast), std::end(fast), uint8_t(0xff));  // the bytes after it are set
    const size_t n = put_varint(plain, v);
    ASSERT_EQ(put_long_varint(fast, v), n) << v;
    ASSERT_TRUE(std::equal(plain, plain + n, fast)) << v;
    for (const uint8_t* buffer : {static_cast<const uint8_t*>(plain), static_cast<const uint8_t*>(fast)})
      for (size_t room : {n, n + 8}) {
        const uint8_t* p = buffer;
        uint64_t back = 0;
        ASSERT_TRUE(get_long_varint(p, buffer + room, back)) << v;
        EXPECT_EQ(back, v);
        EXPECT_EQ(p, buffer + n);
      }
    if (n > 1) {
      const uint8_t* p = plain;
      uint64_t back;
      EXPECT_FALSE(get_long_varint(p, plain + n - 1, back)) << "a varint cut short, " << v;
    }
  }
}

}  // namespace
}  // namespace bookforge::counts
