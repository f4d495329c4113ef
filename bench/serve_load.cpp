// The load generator of bench/serve_load.sh: many HTTP clients (cpp-httplib's client, one
// kept-alive connection each) asking a running `bookforge serve` for the explorer at random
// positions of its tree, for a fixed time. Prints the latency percentiles, requests per second
// and errors (any answer but 200, or none within 5 s). With --slow N, N slow clients
// (bench/slow_clients.h) hold connections open the whole time.
//
// The positions are drawn before the clock starts, from the store itself (read-only): random
// walks from the start position, each move picked among the store's moves, half the time in
// proportion to its games (the lines people look at) and half the time uniformly (the rare
// corners), for 0 to 20 plies.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "chess/san.h"
#include "slow_clients.h"
#include "store/explore.h"
#include "store/store.h"

namespace {

using namespace bookforge;
using Clock = std::chrono::steady_clock;

struct LoadOptions {
  std::string db;
  std::string host = "127.0.0.1";
  int port = 0;
  int clients = 50;
  int seconds = 30;
  int positions = 5000;
  uint64_t seed = 1;
  int slow = 0;
  int slow_interval_ms = 2500;
};

// A request that gets no answer in this time counts as an error (a server whose threads are
// all held answers none).
constexpr time_t kAnswerTimeoutS = 5;

Result<std::vector<std::string>> random_lines(const LoadOptions& opts) {
  Result<store::Store> db = store::Store::open(opts.db, false);
  if (!db) return db.error();
  std::mt19937_64 rng(opts.seed);
  std::vector<std::string> lines;
  while (int(lines.size()) < opts.positions) {
    chess::Board board;
    std::string play;
    const int plies = int(rng() % 21);
    for (int ply = 0; ply < plies; ++ply) {
      Result<store::Exploration> x = store::explore(*db, board);
      if (!x) return x.error();
      if (x->moves.empty()) break;
      size_t chosen = 0;
      if (rng() % 2 == 0) {
        chosen = rng() % x->moves.size();
      } else {
        uint64_t pick = rng() % std::max<uint64_t>(x->games, 1);
        while (chosen + 1 < x->moves.size() && pick >= x->moves[chosen].games)
          pick -= x->moves[chosen++].games;
      }
      const store::ExploredMove& move = x->moves[chosen];
      play += (play.empty() ? "" : ",") + move.uci;
      chess::UndoInfo undo;
      board.make_move(move.move, undo);
    }
    lines.push_back(play);
  }
  return lines;
}

struct ClientTally {
  std::vector<double> latencies_ms;
  uint64_t errors = 0;
};

void run_client(const LoadOptions& opts, const std::vector<std::string>& lines, uint64_t seed,
                Clock::time_point end, ClientTally& tally) {
  httplib::Client client(opts.host, opts.port);
  client.set_keep_alive(true);
  client.set_connection_timeout(kAnswerTimeoutS, 0);
  client.set_read_timeout(kAnswerTimeoutS, 0);
  std::mt19937_64 rng(seed);
  while (Clock::now() < end) {
    const std::string target = "/api/explorer?play=" + lines[rng() % lines.size()];
    const Clock::time_point start = Clock::now();
    httplib::Result answer = client.Get(target);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!answer || answer->status != 200 || answer->body.empty() || answer->body[0] != '{') {
      ++tally.errors;
      continue;
    }
    tally.latencies_ms.push_back(ms);
  }
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  LoadOptions opts;
  CLI::App app{"Load on bookforge serve's explorer: random positions of the store, many clients"};
  app.add_option("--db", opts.db, "The store the server serves (read to pick positions)")->required();
  app.add_option("--host", opts.host, "The server's address");
  app.add_option("--port", opts.port, "The server's port")->required();
  app.add_option("--clients", opts.clients, "Concurrent clients")->check(CLI::Range(1, 1000));
  app.add_option("--seconds", opts.seconds, "How long to run")->check(CLI::Range(1, 3600));
  app.add_option("--positions", opts.positions, "Random positions to draw")->check(CLI::Range(1, 1000000));
  app.add_option("--seed", opts.seed, "Seed of the positions and the clients' choices");
  app.add_option("--slow", opts.slow, "Slow clients holding connections open meanwhile")
      ->check(CLI::Range(0, 2000));
  app.add_option("--slow-interval-ms", opts.slow_interval_ms,
                 "How often each slow client sends a header line")
      ->check(CLI::Range(1, 60000));
  CLI11_PARSE(app, argc, argv);

  Result<std::vector<std::string>> lines = random_lines(opts);
  if (!lines) {
    std::fprintf(stderr, "serve_load: %s\n", lines.error().message.c_str());
    return 1;
  }
  SlowClients slow(opts.host, opts.port, opts.slow, std::chrono::milliseconds(opts.slow_interval_ms));
  if (opts.slow > 0) {
    slow.start();
    std::this_thread::sleep_for(std::chrono::seconds(1));  // for the server to take them in
  }
  std::vector<ClientTally> tallies(size_t(opts.clients));
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + std::chrono::seconds(opts.seconds);
  std::vector<std::thread> threads;
  for (int i = 0; i < opts.clients; ++i)
    threads.emplace_back(run_client, std::cref(opts), std::cref(*lines), opts.seed * 1000 + uint64_t(i), end,
                         std::ref(tallies[size_t(i)]));
  for (std::thread& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const SlowClients::Tally held = slow.stop();

  std::vector<double> latencies;
  uint64_t errors = 0;
  for (const ClientTally& t : tallies) {
    latencies.insert(latencies.end(), t.latencies_ms.begin(), t.latencies_ms.end());
    errors += t.errors;
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf("clients %d, %.1f s, %zu positions\n", opts.clients, elapsed, lines->size());
  if (opts.slow > 0)
    std::printf(
        "slow clients %d (a header line every %d ms): %d open at the end, %llu ended by the server and "
        "opened again\n",
        opts.slow, opts.slow_interval_ms, held.open, (unsigned long long)held.reopened);
  std::printf("requests %zu ok, %llu errors, %.0f requests/s\n", latencies.size(), (unsigned long long)errors,
              double(latencies.size()) / elapsed);
  std::printf("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", percentile(latencies, 50),
              percentile(latencies, 90), percentile(latencies, 99),
              latencies.empty() ? 0.0 : latencies.back());
  return errors == 0 ? 0 : 1;
}
