// eval_tune: fits the evaluation's weights (engine/eval.h, EvalParams) to game results, the
// "Texel" method: quiet positions from real games, each labelled with the game's result
// (1, 1/2, 0 for white), and the weights that minimise the mean squared error between the
// result and a sigmoid of the evaluation. With --scored the label blends the game's result
// with a reference engine's score of the position (tools/sf_label.cpp; --dump writes the
// positions it labels), a far less noisy label.
//
// The evaluation is nearly linear in its weights, so it is linearised once around the current
// weights: for every position and every tunable weight, the change of the evaluation when
// that weight grows by one (read from evaluate_breakdown, so phase blending and endgame
// scaling are included). Gradient descent (Adam, full batch) then runs on that linear model,
// which takes minutes instead of the hours of re-evaluating every position for every step.
// The king-safety attack units (squared in the score), the passed-pawn weights (multiplied by
// king distances) and the mobility centres stay fixed.
//
// What was fitted and tried, with its STS and WAC figures and the noise they are measured
// against, is logged in docs/engine.md ("Tuning the hand-written evaluation").
//
// It starts from the weights compiled into the engine, so a rerun refines the current ones
// (the committed weights came from one run on game results over the hand-set weights, as in
// f3d4302, then one run on Stockfish-labelled positions: the commands are in engine/eval.cpp).
// About 10 minutes of one core and 300 MB for 300k positions read from games; seconds for
// 120k --scored positions.
//
// Rerun (tools are built only with -DBOOKFORGE_BUILD_TOOLS=ON):
//
//   cmake -S . -B build -DBOOKFORGE_BUILD_TOOLS=ON && cmake --build build --target eval_tune
//   build/bin/eval_tune --positions 300000 --sample 8 --iterations 400
//       ../shared/data/games/pgnmentor_players_part1_Alekhine-Ivanchuk.pgn.zst > tuned.inc
//   (one command line)
//
// --only NAME,... fits just those fields of EvalParams (a new term, added at zero) and leaves
// every other weight as it is.
//
// It prints the tuned weights as the C++ initializer of kDefaultParams (paste it over the one
// in engine/eval.cpp) and the error before and after, on the fitted positions and on a
// held-out tenth of them, to stderr.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "chess/board.h"
#include "chess/san.h"
#include "engine/eval.h"
#include "pgn/lexer.h"
#include "pgn/source.h"
#include "pgn/visitor.h"

namespace bookforge {
namespace {

constexpr int kParamCount = sizeof(engine::EvalParams) / sizeof(int);
static_assert(sizeof(engine::EvalParams) % sizeof(int) == 0);

// The fields of EvalParams in declaration order: how many ints each holds, whether the tuner
// may change them, and how to print them.
enum class Shape { kWeights, kInts, kPst };
struct Field {
  const char* name;
  int ints;
  bool tunable;
  Shape shape;
};
constexpr Field kFields[] = {
    {"material", 12, true, Shape::kWeights},
    {"pst_mg", 384, true, Shape::kPst},
    {"pst_eg", 384, true, Shape::kPst},
    {"passed", 16, true, Shape::kWeights},
    {"connected", 16, true, Shape::kWeights},
    {"passed_weight", 8, false, Shape::kInts},
    {"isolated", 2, true, Shape::kWeights},
    {"isolated_open", 2, true, Shape::kWeights},
    {"doubled", 2, true, Shape::kWeights},
    {"backward", 2, true, Shape::kWeights},
    {"mobility_per_square", 12, true, Shape::kWeights},
    {"mobility_centre", 6, false, Shape::kInts},
    {"no_mobility", 12, true, Shape::kWeights},
    {"bishop_pair", 2, true, Shape::kWeights},
    {"bad_bishop_pawn", 2, true, Shape::kWeights},
    {"knight_outpost", 2, true, Shape::kWeights},
    {"bishop_outpost", 2, true, Shape::kWeights},
    {"rook_open_file", 2, true, Shape::kWeights},
    {"rook_half_open_file", 2, true, Shape::kWeights},
    {"rook_on_seventh", 2, true, Shape::kWeights},
    {"tempo", 2, true, Shape::kWeights},
    {"threat_by_pawn", 2, true, Shape::kWeights},
    {"threat_by_minor", 2, true, Shape::kWeights},
    {"threat_by_rook", 2, true, Shape::kWeights},
    {"hanging", 2, true, Shape::kWeights},
    {"weak_pawn", 2, true, Shape::kWeights},
    {"pawn_push_threat", 2, true, Shape::kWeights},
    {"attacker_weight", 6, false, Shape::kInts},
    {"safe_check_units", 6, false, Shape::kInts},
    {"max_attack_units", 1, false, Shape::kInts},
    {"shelter_missing", 1, true, Shape::kInts},
    {"shelter_rank", 8, true, Shape::kInts},
    {"storm_distance", 8, true, Shape::kInts},
    {"space", 2, true, Shape::kWeights},
    {"minor_behind_pawn", 2, true, Shape::kWeights},
    {"bishop_long_diagonal", 2, true, Shape::kWeights},
    {"minor_king_distance", 2, true, Shape::kWeights},
    {"candidate_passed", 16, true, Shape::kWeights},
    {"rook_behind_passer", 2, true, Shape::kWeights},
    {"king_pawn_distance", 2, true, Shape::kWeights},
};
constexpr int field_total() {
  int n = 0;
  for (const Field& f : kFields) n += f.ints;
  return n;
}
static_assert(field_total() == kParamCount, "kFields must list every int of EvalParams");

// Where the piece-square tables start in the flat view (they follow the 12 material ints).
constexpr int kPstMgFirst = 12;
constexpr int kPstEgFirst = kPstMgFirst + 384;
static_assert(offsetof(engine::EvalParams, pst_mg) == kPstMgFirst * sizeof(int));
static_assert(offsetof(engine::EvalParams, pst_eg) == kPstEgFirst * sizeof(int));

std::vector<int> to_flat(const engine::EvalParams& p) {
  std::vector<int> flat(kParamCount);
  std::memcpy(flat.data(), &p, sizeof p);
  return flat;
}

// ---------------------------------------------------------------------------------------------
// Positions

struct Sample {
  chess::Board board;
  float result;  // what the evaluation should predict, for white: 1, 0.5, 0 (or in between)
};

struct Options {
  std::vector<std::string> inputs;
  size_t positions = 300000;  // stop reading once this many are kept
  int sample = 8;             // keep one quiet position in this many
  int min_ply = 16;           // skip the opening (book moves say little about the eval)
  int iterations = 400;       // Adam settles within about 250 on 300k positions
  double learning_rate = 1.0;
  // Pull toward the starting weights, so weights seen in few positions stay put: about the
  // error's curvature for a weight that changes the evaluation of 1% of the positions.
  double decay = 5e-8;
  std::string dump;    // write the sampled positions here ("FEN|result") instead of tuning
  std::string scored;  // tune on these positions ("FEN|result|centipawns", from sf_label)
  // With --scored: the label is lambda * (the engine's score as an expected result) +
  // (1 - lambda) * (the game's result).
  double lambda = 1.0;
  // With --only: the names of the fields to fit (comma-separated); the others stay as they
  // are, so a new term can be fitted without moving the weights already measured.
  std::string only;
};

// Keeps a sample of the quiet positions of each game: not in check, and neither the move
// that led there nor the move played from there is a capture or a promotion (so the static
// evaluation, not a pending exchange, is what the result should follow).
class SampleCollector final : public pgn::Visitor {
 public:
  SampleCollector(const Options& options, std::vector<Sample>& out) : options_(options), out_(out) {}

  pgn::Control begin_game(const pgn::GameContext&) override {
    board_ = chess::Board();
    ply_ = 0;
    result_ = -1;
    last_was_capture_ = false;
    return pgn::Control::kContinue;
  }
  pgn::Control tag(std::string_view name, pgn::TagValue value) override {
    // Games from a set-up position are not replayed (rare; not worth the FEN parsing).
    if (name == "FEN" && !value.raw().empty()) return pgn::Control::kSkip;
    if (name == "Result") {
      if (value.raw() == "1-0") result_ = 1;
      if (value.raw() == "0-1") result_ = 0;
      if (value.raw() == "1/2-1/2") result_ = 0.5f;
    }
    return pgn::Control::kContinue;
  }
  pgn::Control begin_movetext() override {
    return result_ < 0 ? pgn::Control::kSkip : pgn::Control::kContinue;
  }
  pgn::Control begin_variation() override { return pgn::Control::kSkip; }
  pgn::Control san(std::string_view token) override {
    const chess::SanResult r = chess::san_to_move(board_, token);
    if (!r.ok() || r.move == chess::Move::null()) return pgn::Control::kSkip;
    const bool noisy = board_.is_capture(r.move) || r.move.kind() == chess::Move::kPromotion;
    if (ply_ >= options_.min_ply && !noisy && !last_was_capture_ && !board_.in_check() &&
        rng_() % options_.sample == 0)
      out_.push_back({board_, result_});
    last_was_capture_ = noisy;
    chess::UndoInfo undo;
    board_.make_move(r.move, undo);
    ++ply_;
    return out_.size() >= options_.positions ? pgn::Control::kStop : pgn::Control::kContinue;
  }

 private:
  const Options& options_;
  std::vector<Sample>& out_;
  std::mt19937 rng_{20261123};
  chess::Board board_;
  int ply_ = 0;
  float result_ = -1;
  bool last_was_capture_ = false;
};

// Splits a PGN stream into games (a tag line after movetext starts the next game) and hands
// each to the collector.
Status read_samples(const std::string& path, const Options& options, std::vector<Sample>& out) {
  auto source = pgn::open_source(path);
  if (!source) return source.error();
  SampleCollector collector(options, out);
  std::string pending, game;
  std::vector<char> buffer(1 << 20);
  bool in_movetext = false;
  auto flush = [&]() {
    if (!game.empty()) pgn::visit_game_text(game, collector);
    game.clear();
    in_movetext = false;
  };
  for (;;) {
    auto n = (*source)->read(buffer.data(), buffer.size());
    if (!n) return n.error();
    pending.append(buffer.data(), *n);
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      const std::string_view line(pending.data() + start, nl + 1 - start);
      const bool is_tag = line[0] == '[';
      if (is_tag && in_movetext) flush();
      if (!is_tag && line.find_first_not_of(" \t\r\n") != std::string_view::npos) in_movetext = true;
      game.append(line);
      if (out.size() >= options.positions) return ok_status();
    }
    pending.erase(0, start);
    if (*n == 0) break;
  }
  game += pending;
  flush();
  return ok_status();
}

// Writes the samples as "FEN|result" lines, the input of tools/sf_label.
Status dump_samples(const std::string& path, const std::vector<Sample>& samples) {
  FILE* out = std::fopen(path.c_str(), "w");
  if (!out) return Error{"cannot write " + path};
  for (const Sample& s : samples) std::fprintf(out, "%s|%g\n", s.board.fen().c_str(), double(s.result));
  if (std::fclose(out) != 0) return Error{"cannot write " + path};
  return ok_status();
}

// A reference engine's score as an expected result, on the scale of Stockfish's centipawns
// (about 50% more win probability per pawn than a plain 400-point logistic would say).
double expected_result(double centipawns) { return 1.0 / (1.0 + std::pow(10.0, -centipawns / 290.0)); }

// Reads sf_label's "FEN|result|centipawns" lines, each labelled by the blend --lambda sets.
Status read_scored(const std::string& path, const Options& options, std::vector<Sample>& out) {
  FILE* in = std::fopen(path.c_str(), "r");
  if (!in) return Error{"cannot read " + path};
  char buffer[512];
  size_t line_number = 0;
  while (out.size() < options.positions && std::fgets(buffer, sizeof buffer, in)) {
    ++line_number;
    const std::string_view line(buffer);
    const size_t first = line.find('|'), second = line.find('|', first + 1);
    if (second == std::string_view::npos) {
      std::fclose(in);
      return Error{path + ":" + std::to_string(line_number) + ": expected FEN|result|centipawns"};
    }
    auto board = chess::Board::from_fen(line.substr(0, first));
    if (!board.ok()) {
      std::fclose(in);
      return Error{path + ":" + std::to_string(line_number) + ": " + board.error().message};
    }
    const double result = std::atof(buffer + first + 1), centipawns = std::atof(buffer + second + 1);
    out.push_back(
        {*board, float(options.lambda * expected_result(centipawns) + (1 - options.lambda) * result)});
  }
  std::fclose(in);
  return ok_status();
}

// ---------------------------------------------------------------------------------------------
// The linear model

double blend(const engine::EvalBreakdown& e, double mg, double eg) {
  return (mg * e.phase + eg * e.eg_scale / 64.0 * (24 - e.phase)) / 24.0;
}

struct Term {
  uint16_t param;
  float coefficient;  // change of the white-view evaluation per unit of the weight
};

struct Model {
  std::vector<double> base;  // evaluation at the starting weights, white's view
  std::vector<float> result;
  std::vector<uint32_t> offset;  // terms of position i: terms[offset[i] .. offset[i + 1])
  std::vector<Term> terms;
};

Model linearise(const std::vector<Sample>& samples, const std::vector<bool>& tunable) {
  Model m;
  m.offset.push_back(0);
  engine::EvalParams params = engine::default_eval_params();
  int* raw = reinterpret_cast<int*>(&params);  // EvalParams is only ints (static_asserts above)
  size_t done = 0;
  for (const Sample& s : samples) {
    const engine::EvalBreakdown e0 = engine::evaluate_breakdown(s.board, params);
    if (e0.drawn) continue;
    m.base.push_back(blend(e0, e0.mg, e0.eg));
    m.result.push_back(s.result);
    // Piece-square weights enter the score only through the pieces on their squares: their
    // coefficients are counted, not measured (they are four fifths of the weights).
    int square_count[6][64] = {};
    for (chess::Color c : {chess::kWhite, chess::kBlack})
      for (int pt = chess::kPawn; pt <= chess::kKing; ++pt)
        for (chess::Bitboard bb = s.board.pieces(c, chess::PieceType(pt)); bb;) {
          const chess::Square sq = chess::pop_lsb(bb);
          square_count[pt][c == chess::kWhite ? sq ^ 56 : sq] += c == chess::kWhite ? 1 : -1;
        }
    for (int pt = chess::kPawn; pt <= chess::kKing; ++pt)
      for (int idx = 0; idx < 64; ++idx) {
        if (const int n = square_count[pt][idx]) {
          const int mg = kPstMgFirst + pt * 64 + idx, eg = kPstEgFirst + pt * 64 + idx;
          if (tunable[mg]) m.terms.push_back({uint16_t(mg), float(blend(e0, n, 0))});
          if (tunable[eg]) m.terms.push_back({uint16_t(eg), float(blend(e0, 0, n))});
        }
      }
    for (int i = 0; i < kParamCount; ++i) {
      if (!tunable[i] || (i >= kPstMgFirst && i < kPstEgFirst + 384)) continue;
      ++raw[i];
      const engine::EvalBreakdown e = engine::evaluate_breakdown(s.board, params);
      --raw[i];
      if (e.mg == e0.mg && e.eg == e0.eg) continue;
      m.terms.push_back({uint16_t(i), float(blend(e0, e.mg - e0.mg, e.eg - e0.eg))});
    }
    m.offset.push_back(uint32_t(m.terms.size()));
    if (++done % 50000 == 0) std::cerr << "linearised " << done << " positions\n";
  }
  return m;
}

double sigmoid(double k, double eval) { return 1.0 / (1.0 + std::pow(10.0, -k * eval / 400.0)); }

double eval_at(const Model& m, size_t i, const std::vector<double>& delta) {
  double e = m.base[i];
  for (uint32_t t = m.offset[i]; t < m.offset[i + 1]; ++t)
    e += m.terms[t].coefficient * delta[m.terms[t].param];
  return e;
}

double mean_error(const Model& m, size_t begin, size_t end, double k, const std::vector<double>& delta) {
  double sum = 0;
  for (size_t i = begin; i < end; ++i) {
    const double d = m.result[i] - sigmoid(k, eval_at(m, i, delta));
    sum += d * d;
  }
  return sum / double(end - begin);
}

// The scaling constant K that best maps the starting evaluation to results.
double fit_k(const Model& m, size_t n) {
  const std::vector<double> zero(kParamCount, 0.0);
  double best_k = 1, best = 1e9;
  for (double k = 0.3; k <= 2.5; k += 0.02) {
    const double e = mean_error(m, 0, n, k, zero);
    if (e < best) best = e, best_k = k;
  }
  return best_k;
}

std::vector<double> descend(const Model& m, size_t n, double k, const Options& options) {
  std::vector<double> delta(kParamCount, 0.0), grad(kParamCount), first(kParamCount, 0.0),
      second(kParamCount, 0.0);
  const double ln10 = std::log(10.0);
  for (int it = 1; it <= options.iterations; ++it) {
    // Steps shrink toward the end so that the weights settle instead of circling the minimum.
    const double rate = options.learning_rate * (1.0 - 0.9 * it / options.iterations);
    std::fill(grad.begin(), grad.end(), 0.0);
    for (size_t i = 0; i < n; ++i) {
      const double s = sigmoid(k, eval_at(m, i, delta));
      const double g = -2.0 * (m.result[i] - s) * s * (1 - s) * k * ln10 / 400.0;
      for (uint32_t t = m.offset[i]; t < m.offset[i + 1]; ++t)
        grad[m.terms[t].param] += g * m.terms[t].coefficient;
    }
    for (int p = 0; p < kParamCount; ++p) {
      const double g = grad[p] / double(n) + options.decay * delta[p];
      first[p] = 0.9 * first[p] + 0.1 * g;
      second[p] = 0.999 * second[p] + 0.001 * g * g;
      const double mh = first[p] / (1 - std::pow(0.9, it)), vh = second[p] / (1 - std::pow(0.999, it));
      delta[p] -= rate * mh / (std::sqrt(vh) + 1e-12);
    }
    if (it % 250 == 0) std::cerr << "iteration " << it << ": error " << mean_error(m, 0, n, k, delta) << "\n";
  }
  return delta;
}

// ---------------------------------------------------------------------------------------------
// Output: the initializer of kDefaultParams, as engine/eval.cpp spells it.

void print_params(const std::vector<int>& flat) {
  static constexpr const char* kPieceNames[6] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
  std::printf("constexpr EvalParams kDefaultParams = {\n");
  int at = 0;
  for (const Field& f : kFields) {
    const int* v = flat.data() + at;
    if (f.shape == Shape::kPst) {
      std::printf("    .%s = {\n", f.name);
      for (int pt = 0; pt < 6; ++pt) {
        std::printf("        {  // %s\n", kPieceNames[pt]);
        for (int row = 0; row < 8; ++row) {
          std::printf("        ");
          for (int col = 0; col < 8; ++col) std::printf("%4d,", v[pt * 64 + row * 8 + col]);
          std::printf("\n");
        }
        std::printf("        },\n");
      }
      std::printf("    },\n");
    } else if (f.shape == Shape::kWeights) {
      std::printf("    .%s = ", f.name);
      if (f.ints > 2) std::printf("{");
      for (int i = 0; i < f.ints; i += 2) std::printf("%s{%d, %d}", i ? ", " : "", v[i], v[i + 1]);
      std::printf("%s,\n", f.ints > 2 ? "}" : "");
    } else {
      std::printf("    .%s = ", f.name);
      if (f.ints > 1) std::printf("{");
      for (int i = 0; i < f.ints; ++i) std::printf("%s%d", i ? ", " : "", v[i]);
      std::printf("%s,\n", f.ints > 1 ? "}" : "");
    }
    at += f.ints;
  }
  std::printf("};\n");
}

int run(const Options& options) {
  // --only names fields; a misspelt one would silently fit nothing.
  std::vector<std::string> only;
  for (size_t from = 0; from < options.only.size();) {
    const size_t comma = std::min(options.only.find(',', from), options.only.size());
    only.push_back(options.only.substr(from, comma - from));
    from = comma + 1;
  }
  for (const std::string& name : only)
    if (std::none_of(std::begin(kFields), std::end(kFields),
                     [&](const Field& f) { return f.tunable && name == f.name; })) {
      std::cerr << "eval_tune: --only: EvalParams has no tunable field named '" << name << "'\n";
      return 2;
    }
  std::vector<Sample> samples;
  if (!options.scored.empty()) {
    if (Status s = read_scored(options.scored, options, samples); !s) {
      std::cerr << "eval_tune: " << s.error().message << "\n";
      return 1;
    }
  }
  for (const std::string& path : options.inputs) {
    if (samples.size() >= options.positions) break;
    if (Status s = read_samples(path, options, samples); !s) {
      std::cerr << "eval_tune: " << s.error().message << "\n";
      return 1;
    }
    std::cerr << path << ": " << samples.size() << " positions so far\n";
  }
  if (samples.size() < 1000) {
    std::cerr << "eval_tune: only " << samples.size() << " positions; give more games\n";
    return 1;
  }
  // Shuffle so that the held-out tenth comes from all inputs and all parts of the games.
  std::shuffle(samples.begin(), samples.end(), std::mt19937(7));
  if (!options.dump.empty()) {
    if (Status s = dump_samples(options.dump, samples); !s) {
      std::cerr << "eval_tune: " << s.error().message << "\n";
      return 1;
    }
    std::cerr << "wrote " << samples.size() << " positions to " << options.dump << "\n";
    return 0;
  }

  const std::vector<int> start = to_flat(engine::default_eval_params());
  std::vector<bool> tunable(kParamCount, false);
  int at = 0;
  for (const Field& f : kFields) {
    const bool chosen = options.only.empty() || std::find(only.begin(), only.end(), f.name) != only.end();
    for (int i = 0; i < f.ints; ++i) tunable[at + i] = f.tunable && chosen;
    at += f.ints;
  }
  const Model model = linearise(samples, tunable);
  samples.clear();
  samples.shrink_to_fit();
  const size_t total = model.base.size(), fitted = total - total / 10;
  std::cerr << total << " positions, " << model.terms.size() << " terms\n";

  const double k = fit_k(model, fitted);
  const std::vector<double> zero(kParamCount, 0.0);
  std::cerr << "K = " << k << "; error before: fitted " << mean_error(model, 0, fitted, k, zero)
            << ", held out " << mean_error(model, fitted, total, k, zero) << "\n";
  const std::vector<double> delta = descend(model, fitted, k, options);
  std::vector<int> tuned = start;
  std::vector<double> rounded(kParamCount, 0.0);
  for (int p = 0; p < kParamCount; ++p) {
    tuned[p] = start[p] + int(std::lround(delta[p]));
    rounded[p] = tuned[p] - start[p];
  }
  std::cerr << "error after (linear model, rounded weights): fitted "
            << mean_error(model, 0, fitted, k, rounded) << ", held out "
            << mean_error(model, fitted, total, k, rounded) << "\n";
  print_params(tuned);
  return 0;
}

}  // namespace
}  // namespace bookforge

int main(int argc, char** argv) {
  bookforge::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto number = [&](const char* name) {
      if (i + 1 >= argc) {
        std::cerr << "eval_tune: " << name << " needs a value\n";
        std::exit(2);
      }
      return std::atof(argv[++i]);
    };
    if (arg == "--positions")
      options.positions = size_t(number("--positions"));
    else if (arg == "--sample")
      options.sample = std::max(1, int(number("--sample")));
    else if (arg == "--min-ply")
      options.min_ply = int(number("--min-ply"));
    else if (arg == "--iterations")
      options.iterations = int(number("--iterations"));
    else if (arg == "--learning-rate")
      options.learning_rate = number("--learning-rate");
    else if (arg == "--decay")
      options.decay = number("--decay");
    else if (arg == "--lambda")
      options.lambda = number("--lambda");
    else if (arg == "--only" && i + 1 < argc)
      options.only = argv[++i];
    else if ((arg == "--dump" || arg == "--scored") && i + 1 < argc)
      (arg == "--dump" ? options.dump : options.scored) = argv[++i];
    else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      std::cerr << "eval_tune: unknown option " << arg << "\n";
      return 2;
    } else {
      options.inputs.emplace_back(arg);
    }
  }
  if (options.inputs.empty() && options.scored.empty()) {
    std::cerr
        << "usage: eval_tune [--positions N] [--sample N] [--min-ply N] [--iterations N]\n"
           "                 [--learning-rate X] [--decay X] [--dump FILE]\n"
           "                 [--scored FILE [--lambda X]] [--only FIELD,...] [GAMES.pgn[.zst|.gz] ...]\n";
    return 2;
  }
  return bookforge::run(options);
}
