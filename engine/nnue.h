// The evaluation network: a small efficiently updatable network (NNUE) of the kind every strong
// engine evaluates with, trained by tools/nnue_train.cpp on quiet positions of real games
// labelled with Stockfish's static evaluation (tools/sf_label.cpp --static) and the games'
// results.
//
//   768 inputs, one per (own or enemy, piece type, square) seen from one side, the board turned
//   for Black so that each side sees itself moving up the board
//     -> kHidden neurons (the accumulator), once from the side to move's view and once from the
//        other side's, with the same weights
//     -> clipped ReLU, clamp(x, 0, 1)
//     -> one output: the side to move's half, then the other side's, weighted and summed;
//        times kScale is centipawns from the side to move's view.
//
// Integers, as it runs: the accumulator's weights and biases are scaled by kQA and the output
// weights by kQB (int16), so the output sum divided by kQA * kQB is the float network's output.
// The network the engine ships (engine/network.nnue) is compiled into the binary; the hand-
// written evaluation (engine/eval.h) stays, chosen by set_use_network.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/result.h"
#include "chess/board.h"
#include "engine/score.h"

namespace bookforge::engine::nnue {

inline constexpr int kFeatures = 768;
inline constexpr int kHidden = 128;
inline constexpr int kQA = 255;
inline constexpr int kQB = 1024;
inline constexpr int kScale = 400;

// The input that piece `p` on `s` sets for the view of `perspective`.
inline int feature(chess::Color perspective, chess::Piece p, chess::Square s) {
  const int enemy = chess::color_of(p) == perspective ? 0 : 1;
  const int square = perspective == chess::kWhite ? int(s) : int(s) ^ 56;
  return enemy * 384 + int(chess::type_of(p)) * 64 + square;
}

struct Network {
  alignas(64) std::array<int16_t, size_t(kFeatures) * kHidden> feature_weights;  // by feature, then neuron
  alignas(64) std::array<int16_t, kHidden> feature_bias;
  alignas(64) std::array<int16_t, 2 * kHidden> output_weights;  // the side to move's half first
  int32_t output_bias = 0;
};

// The file: "BFNN", version (u32), kHidden (u32), then the arrays in the order above, little-
// endian, and nothing after. `name` is for the messages.
Result<std::unique_ptr<Network>> read_network(std::span<const unsigned char> bytes, const std::string& name);
Result<std::unique_ptr<Network>> read_network_file(const std::string& path);
std::string network_bytes(const Network& network);

// The network compiled into the binary.
const Network& embedded_network();

// The network engine::evaluate uses: the embedded one, or the file last given here ("<embedded>"
// or "" goes back to the embedded one). Not while a search runs.
const Network& active_network();
Status use_network_file(const std::string& path);

// Centipawns from the side to move's view, the accumulators computed from the pieces.
Score evaluate(const chess::Board& board, const Network& network);

// Whether engine::evaluate uses the network (the default) or the hand-written evaluation; for
// the whole process (the UCI option, the rescoring flags).
void set_use_network(bool use);
bool use_network();

}  // namespace bookforge::engine::nnue
