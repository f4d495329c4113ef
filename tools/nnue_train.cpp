// nnue_train: trains the evaluation network (engine/nnue.h) and writes it as a network file,
// ready to be shipped as engine/network.nnue or tried with the UCI option EvalFile.
//
// Input: the lines sf_label writes, "FEN|result|centipawns" (result 1, 0.5 or 0 and the score,
// both from White's view). The positions come from real games (eval_tune --dump keeps quiet
// ones), the scores from Stockfish's static evaluation (sf_label --static):
//
//   build/bin/eval_tune --dump positions.txt --positions 4000000 --sample 5 GAMES...
//   build/bin/sf_label --static < positions.txt > scored.txt
//   build/bin/nnue_train scored.txt -o network.nnue [--epochs 30] [--lambda 0.9]
//
// The target of a position is lambda * sigmoid(score / 400) + (1 - lambda) * result, from the
// side to move's view; the loss is the squared difference from sigmoid(network output), the
// output being centipawns / 400. Minibatch gradient descent with Adam, on --threads threads (each
// a share of every batch); the learning rate drops to a third at 60% and again at 85% of the
// epochs. A held-out share of the positions (--hold-out, drawn before training) is never trained
// on: its loss is printed after every epoch, with the mean gap in centipawns between the
// network and Stockfish there. Deterministic for a given --seed and --threads.
//
// The float weights are kept within the range the integer network holds (engine/nnue.h), then
// rounded; the held-out positions are scored once more by the engine's integer network, and
// the gap between the two is printed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "chess/attacks.h"
#include "chess/board.h"
#include "engine/eval.h"
#include "engine/nnue.h"

namespace bookforge {
namespace {

using engine::nnue::kFeatures;
using engine::nnue::kHidden;

constexpr int kMaxPieces = 32;
// The largest accumulator weight and bias: 32 pieces' weights plus the bias stay within int16
// once scaled by kQA. The largest output weight: within int16 once scaled by kQB.
constexpr float kWeightClip = 1.98f;
constexpr float kOutputClip = 31.9f;

struct Options {
  std::vector<std::string> inputs;
  std::string output;
  int epochs = 30;
  int batch = 16384;
  float learning_rate = 0.001f;
  float lambda = 0.9f;
  double hold_out = 0.05;
  int threads = 2;
  uint64_t seed = 1;
};

// A position as the network sees it: the side to move's features, the other side's, the target.
struct Sample {
  uint16_t us[kMaxPieces];
  uint16_t them[kMaxPieces];
  uint8_t count = 0;
  float target = 0;
  float score = 0;  // Stockfish's, centipawns, side to move's view
  std::string fen;  // kept for the held-out check by the integer network only
};

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

bool read_samples(const std::string& path, const Options& options, std::vector<Sample>& out) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "nnue_train: " << path << ": cannot open\n";
    return false;
  }
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const size_t a = line.find('|'), b = line.find('|', a + 1);
    if (a == std::string::npos || b == std::string::npos) {
      std::cerr << "nnue_train: " << path << ", line " << number << ": expected FEN|result|centipawns\n";
      return false;
    }
    const auto board = chess::Board::from_fen(std::string_view(line).substr(0, a));
    if (!board.ok()) {
      std::cerr << "nnue_train: " << path << ", line " << number << ": " << board.error().message << "\n";
      return false;
    }
    const float result = std::strtof(line.c_str() + a + 1, nullptr);
    const float white_score = std::strtof(line.c_str() + b + 1, nullptr);
    const chess::Color us = board->side_to_move();
    Sample s;
    for (chess::Bitboard left = board->pieces(); left && s.count < kMaxPieces;) {
      const chess::Square sq = chess::pop_lsb(left);
      const chess::Piece p = board->piece_on(sq);
      s.us[s.count] = uint16_t(engine::nnue::feature(us, p, sq));
      s.them[s.count] = uint16_t(engine::nnue::feature(~us, p, sq));
      ++s.count;
    }
    s.score = us == chess::kWhite ? white_score : -white_score;
    const float stm_result = us == chess::kWhite ? result : 1.0f - result;
    s.target = options.lambda * sigmoid(s.score / 400.0f) + (1.0f - options.lambda) * stm_result;
    s.fen = line.substr(0, a);
    out.push_back(std::move(s));
  }
  return true;
}

struct Weights {
  std::vector<float> w = std::vector<float>(size_t(kFeatures) * kHidden);  // by feature, then neuron
  std::vector<float> b = std::vector<float>(kHidden);
  std::vector<float> v = std::vector<float>(2 * kHidden);
  float c = 0;

  void zero() {
    std::fill(w.begin(), w.end(), 0.0f);
    std::fill(b.begin(), b.end(), 0.0f);
    std::fill(v.begin(), v.end(), 0.0f);
    c = 0;
  }
};

// The network's output (centipawns / 400) for `s`; with `grad`, adds d(loss)/d(weights) there
// and returns the output too.
float forward(const Weights& net, const Sample& s, Weights* grad, float* loss) {
  alignas(64) float acc[2][kHidden];
  std::copy(net.b.begin(), net.b.end(), acc[0]);
  std::copy(net.b.begin(), net.b.end(), acc[1]);
  for (int k = 0; k < s.count; ++k) {
    const float* mine = net.w.data() + size_t(s.us[k]) * kHidden;
    const float* theirs = net.w.data() + size_t(s.them[k]) * kHidden;
    for (int i = 0; i < kHidden; ++i) acc[0][i] += mine[i];
    for (int i = 0; i < kHidden; ++i) acc[1][i] += theirs[i];
  }
  float out = net.c;
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < kHidden; ++i)
      out += std::clamp(acc[side][i], 0.0f, 1.0f) * net.v[size_t(side * kHidden + i)];
  if (!grad) return out;
  const float p = sigmoid(out);
  const float error = p - s.target;
  *loss += error * error;
  const float g = 2.0f * error * p * (1.0f - p);
  grad->c += g;
  alignas(64) float d[2][kHidden];
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < kHidden; ++i) {
      const float a = acc[side][i];
      const float active = a > 0.0f && a < 1.0f ? 1.0f : 0.0f;
      grad->v[size_t(side * kHidden + i)] += g * std::clamp(a, 0.0f, 1.0f);
      d[side][i] = g * net.v[size_t(side * kHidden + i)] * active;
      grad->b[size_t(i)] += d[side][i];
    }
  for (int k = 0; k < s.count; ++k) {
    float* mine = grad->w.data() + size_t(s.us[k]) * kHidden;
    float* theirs = grad->w.data() + size_t(s.them[k]) * kHidden;
    for (int i = 0; i < kHidden; ++i) mine[i] += d[0][i];
    for (int i = 0; i < kHidden; ++i) theirs[i] += d[1][i];
  }
  return out;
}

class Adam {
 public:
  explicit Adam(size_t n) : m_(n), v_(n) {}
  void step(float* weights, const float* grad, size_t n, size_t offset, float lr, float clip) {
    for (size_t i = 0; i < n; ++i) {
      float& m = m_[offset + i];
      float& v = v_[offset + i];
      m = kBeta1 * m + (1 - kBeta1) * grad[i];
      v = kBeta2 * v + (1 - kBeta2) * grad[i] * grad[i];
      weights[i] = std::clamp(weights[i] - lr * m / (std::sqrt(v) + 1e-8f), -clip, clip);
    }
  }

 private:
  static constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f;
  std::vector<float> m_, v_;
};

struct HeldOut {
  double loss = 0;
  double gap_cp = 0;  // mean |network - Stockfish|, centipawns
};

HeldOut held_out_error(const Weights& net, const std::vector<Sample>& samples) {
  HeldOut h;
  for (const Sample& s : samples) {
    const float out = forward(net, s, nullptr, nullptr);
    const float e = sigmoid(out) - s.target;
    h.loss += e * e;
    h.gap_cp += std::fabs(out * 400.0f - s.score);
  }
  if (!samples.empty()) {
    h.loss /= double(samples.size());
    h.gap_cp /= double(samples.size());
  }
  return h;
}

engine::nnue::Network quantize(const Weights& net) {
  using engine::nnue::kQA;
  using engine::nnue::kQB;
  engine::nnue::Network q;
  for (size_t i = 0; i < net.w.size(); ++i) q.feature_weights[i] = int16_t(std::lround(net.w[i] * kQA));
  for (size_t i = 0; i < net.b.size(); ++i) q.feature_bias[i] = int16_t(std::lround(net.b[i] * kQA));
  for (size_t i = 0; i < net.v.size(); ++i)
    q.output_weights[i] = int16_t(std::clamp<long>(std::lround(net.v[i] * kQB), -32767, 32767));
  q.output_bias = int32_t(std::lround(double(net.c) * kQA * kQB));
  return q;
}

int train(const Options& options) {
  std::vector<Sample> all;
  for (const std::string& path : options.inputs)
    if (!read_samples(path, options, all)) return 1;
  if (all.size() < 100) {
    std::cerr << "nnue_train: " << all.size() << " positions: too few to train on\n";
    return 1;
  }
  std::mt19937_64 rng(options.seed);
  std::shuffle(all.begin(), all.end(), rng);
  const size_t held = size_t(double(all.size()) * options.hold_out);
  std::vector<Sample> held_out(std::make_move_iterator(all.end() - long(held)),
                               std::make_move_iterator(all.end()));
  all.resize(all.size() - held);
  for (Sample& s : all) std::string().swap(s.fen);
  std::cerr << "training on " << all.size() << " positions, " << held_out.size() << " held out\n";

  Weights net;
  {
    std::uniform_real_distribution<float> w(-0.1f, 0.1f), v(-0.05f, 0.05f), b(0.0f, 0.2f);
    for (float& x : net.w) x = w(rng);
    for (float& x : net.b) x = b(rng);
    for (float& x : net.v) x = v(rng);
  }
  const size_t n_w = net.w.size(), n_b = net.b.size(), n_v = net.v.size();
  Adam adam(n_w + n_b + n_v + 1);
  const int threads = std::max(1, options.threads);
  std::vector<Weights> grads(static_cast<size_t>(threads));
  std::vector<float> losses(static_cast<size_t>(threads));
  std::vector<size_t> order(all.size());
  std::iota(order.begin(), order.end(), size_t(0));

  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    float lr = options.learning_rate;
    if (epoch >= options.epochs * 60 / 100) lr /= 3;
    if (epoch >= options.epochs * 85 / 100) lr /= 3;
    std::shuffle(order.begin(), order.end(), rng);
    double epoch_loss = 0;
    for (size_t start = 0; start < order.size(); start += size_t(options.batch)) {
      const size_t end = std::min(order.size(), start + size_t(options.batch));
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          Weights& g = grads[size_t(t)];
          g.zero();
          losses[size_t(t)] = 0;
          for (size_t i = start + size_t(t); i < end; i += size_t(threads))
            forward(net, all[order[i]], &g, &losses[size_t(t)]);
        });
      }
      for (std::thread& t : pool) t.join();
      Weights& sum = grads[0];
      for (int t = 1; t < threads; ++t) {
        for (size_t i = 0; i < n_w; ++i) sum.w[i] += grads[size_t(t)].w[i];
        for (size_t i = 0; i < n_b; ++i) sum.b[i] += grads[size_t(t)].b[i];
        for (size_t i = 0; i < n_v; ++i) sum.v[i] += grads[size_t(t)].v[i];
        sum.c += grads[size_t(t)].c;
      }
      for (float l : losses) epoch_loss += l;
      const float scale = 1.0f / float(end - start);
      for (float& x : sum.w) x *= scale;
      for (float& x : sum.b) x *= scale;
      for (float& x : sum.v) x *= scale;
      sum.c *= scale;
      adam.step(net.w.data(), sum.w.data(), n_w, 0, lr, kWeightClip);
      adam.step(net.b.data(), sum.b.data(), n_b, n_w, lr, kWeightClip);
      adam.step(net.v.data(), sum.v.data(), n_v, n_w + n_b, lr, kOutputClip);
      adam.step(&net.c, &sum.c, 1, n_w + n_b + n_v, lr, kOutputClip);
    }
    const HeldOut h = held_out_error(net, held_out);
    std::fprintf(stderr, "epoch %d: train loss %.6f, held-out loss %.6f, held-out gap to Stockfish %.1f cp\n",
                 epoch + 1, epoch_loss / double(order.size()), h.loss, h.gap_cp);
  }

  const auto quantized = std::make_unique<engine::nnue::Network>(quantize(net));
  double gap = 0, gap_sf = 0, gap_hand = 0;
  for (const Sample& s : held_out) {
    const auto board = chess::Board::from_fen(s.fen);
    const double integer = engine::nnue::evaluate(*board, *quantized);
    gap_hand += std::fabs(double(engine::evaluate(*board, engine::default_eval_params())) - s.score);
    gap += std::fabs(integer - forward(net, s, nullptr, nullptr) * 400.0);
    gap_sf += std::fabs(integer - s.score);
  }
  std::fprintf(
      stderr,
      "integer network on the held-out positions: %.2f cp from the float one, %.1f cp from Stockfish\n",
      gap / double(held_out.size()), gap_sf / double(held_out.size()));
  std::fprintf(stderr, "the hand-written evaluation on the same positions: %.1f cp from Stockfish\n",
               gap_hand / double(held_out.size()));
  std::ofstream out(options.output, std::ios::binary);
  const std::string bytes = engine::nnue::network_bytes(*quantized);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out.flush()) {
    std::cerr << "nnue_train: " << options.output << ": cannot write\n";
    return 1;
  }
  std::cerr << "wrote " << options.output << "\n";
  return 0;
}

}  // namespace
}  // namespace bookforge

int main(int argc, char** argv) {
  bookforge::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "-o")
      options.output = value();
    else if (arg == "--epochs")
      options.epochs = std::atoi(value());
    else if (arg == "--batch")
      options.batch = std::max(1, std::atoi(value()));
    else if (arg == "--lr")
      options.learning_rate = std::strtof(value(), nullptr);
    else if (arg == "--lambda")
      options.lambda = std::strtof(value(), nullptr);
    else if (arg == "--hold-out")
      options.hold_out = std::strtod(value(), nullptr);
    else if (arg == "--threads")
      options.threads = std::atoi(value());
    else if (arg == "--seed")
      options.seed = std::strtoull(value(), nullptr, 10);
    else if (!arg.empty() && arg[0] != '-')
      options.inputs.emplace_back(arg);
    else {
      std::cerr << "nnue_train: unknown option " << arg << "\n";
      return 2;
    }
  }
  if (options.inputs.empty() || options.output.empty()) {
    std::cerr
        << "usage: nnue_train SCORED... -o network.nnue [--epochs N] [--batch N] [--lr X] [--lambda X]\n"
           "                  [--hold-out X] [--threads N] [--seed N]\n";
    return 2;
  }
  return bookforge::train(options);
}
