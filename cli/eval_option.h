// --eval network|classical: which evaluation the embedded engine uses in `analyse` and `bench`
// (rescoring has its own, --rescore-eval, recorded in its plans; the UCI engine has the options
// "Use NNUE" and EvalFile). The network (engine/nnue.h) is the default.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "engine/nnue.h"

namespace bookforge::cli {

// The two values, for --eval and --rescore-eval alike.
inline CLI::Validator eval_choices() { return CLI::IsMember({"network", "classical"}); }
inline bool is_classical(const std::string& eval) { return eval == "classical"; }

inline void add_eval_option(CLI::App* cmd, std::string& eval) {
  cmd->add_option("--eval", eval,
                  "The evaluation: the network (network) or the hand-written one (classical) [network]")
      ->check(eval_choices());
}

inline void apply_eval_option(const std::string& eval) { engine::nnue::set_use_network(!is_classical(eval)); }

}  // namespace bookforge::cli
