// How subcommands plug into the bookforge executable. Each subcommand lives in its own file
// with an Options struct, a setup function that declares its flags on a CLI11 subcommand,
// and a run function; it registers itself with BOOKFORGE_REGISTER_COMMAND so that main.cpp
// only wires the registry and maps errors to exit codes.
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace bookforge::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the run could not complete (I/O, corrupt input, ...)
inline constexpr int kExitUsage = 2;    // bad command-line input (CLI11's message)

// The most threads --threads may ask for, in every command: more than the cores only adds
// overhead, and each thread costs buffers of its own.
inline constexpr int kMaxThreads = 256;
// The engine's limits, the same in every command that searches.
inline constexpr int kMaxHashMb = 65536;
inline constexpr int kMaxMovetimeMs = 24 * 3600 * 1000;  // a day

using SetupFn = void (*)(CLI::App& root);

struct CommandRegistration {
  CommandRegistration(const char* name, SetupFn setup);
};

#define BOOKFORGE_REGISTER_COMMAND(name, setup_fn) \
  static const ::bookforge::cli::CommandRegistration bookforge_command_registration_##setup_fn(name, setup_fn)

// Adds a subcommand with the flags every subcommand has (--help, --version).
CLI::App* add_subcommand(CLI::App& root, const std::string& name, const std::string& description);

// The process exit code, set by the subcommand that ran.
void set_exit_code(int code);

// Prints "bookforge: error: <message>" on stderr (the only place errors reach the terminal).
void print_error(std::string_view message);
void print_warning(std::string_view message);

}  // namespace bookforge::cli
