// bookforge serve: the explorer over a store and books, as an HTTP API (the lichess explorer's
// shape) and a page, until Ctrl-C. The store and the books are only read.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "book/book_file.h"
#include "cli/command.h"
#include "cli/number_option.h"
#include "cli/openings_option.h"
#include "serve/server.h"

namespace bookforge::cli {
namespace {

struct ServeOptions {
  std::string db;
  std::string masters;  // /masters's own store
  std::string lichess;  // /lichess's own store
  std::vector<std::string> books;
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string openings;
};

// Read connections to the store: enough that the server's threads rarely wait for one on a
// machine of this many cores, few enough to keep SQLite's page caches small.
size_t store_connections() { return std::max<size_t>(4, 2 * std::thread::hardware_concurrency()); }
constexpr size_t kEngineSlots = 2;
constexpr size_t kEngineHashMb = 16;

// Ctrl-C, SIGTERM and SIGHUP stop the server, which then returns from run() and the command
// exits 0 (the server leaves no file to clean up). The signals are blocked in every thread
// (the mask is set before any thread starts, and threads inherit it) and taken by this one.
class StopOnSignal {
 public:
  // The signals must be blocked already, in the thread that made the others.
  explicit StopOnSignal(serve::Server& server) {
    watcher_ = std::thread([this, &server, signals = stop_signals()] {
      const timespec poll{0, 100'000'000};
      while (!done_.load()) {
        if (sigtimedwait(&signals, nullptr, &poll) > 0) {
          server.stop();
          return;
        }
      }
    });
  }
  ~StopOnSignal() {
    done_.store(true);
    watcher_.join();
  }
  static sigset_t stop_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, signal);
    return signals;
  }

 private:
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

std::string url_of(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

int run_serve(const ServeOptions& opts) {
  // Before any thread exists (the engines and the store pool start none, the server does).
  sigset_t signals = StopOnSignal::stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // --db serves every path; --masters and --lichess their own (and the rest when there is no --db).
  serve::ApiStores stores;
  const std::string& main_path = !opts.db.empty()        ? opts.db
                                 : !opts.lichess.empty() ? opts.lichess
                                                         : opts.masters;
  for (auto [path, pool] : {std::pair{&main_path, &stores.main}, std::pair{&opts.masters, &stores.masters},
                            std::pair{&opts.lichess, &stores.lichess}}) {
    if (path->empty()) continue;
    Result<std::unique_ptr<serve::StorePool>> opened = serve::StorePool::open(*path, store_connections());
    if (!opened) {
      print_error(opened.error().message);
      return kExitFailure;
    }
    *pool = std::move(*opened);
  }
  std::vector<serve::NamedBook> books;
  for (const std::string& path : opts.books) {
    Result<book::PolyglotBook> opened = book::open_book_file(path);
    if (!opened) {
      print_error(opened.error().message);
      return kExitFailure;
    }
    books.push_back({std::filesystem::path(path).filename().string(), std::move(*opened)});
  }
  book::OpeningNames names;
  if (int code = load_opening_names(opts.openings, names); code != kExitOk) return code;

  serve::Api api(std::move(stores), std::move(names), std::move(books),
                 std::make_unique<serve::EngineSlots>(kEngineSlots, kEngineHashMb));
  if (Status read = api.refresh_info(); !read) {
    print_error(read.error().message);
    return kExitFailure;
  }
  serve::Server server(api, serve::ServerLimits{});
  // What the server could not answer is said here too, for whoever runs it.
  server.on_failure([](const std::string& failure) { print_error(failure); });
  Result<int> port = server.bind(opts.host, opts.port);
  if (!port) {
    print_error(port.error().message);
    return kExitFailure;
  }
  if (!is_loopback(opts.host))
    print_warning("listening on " + opts.host + ": other machines can read this store and these books");
  std::printf("bookforge serve: %s (Ctrl-C stops it)\n", url_of(opts.host, *port).c_str());
  std::fflush(stdout);

  StopOnSignal stop_on_signal(server);
  if (Status ran = server.run(); !ran) {
    print_error(ran.error().message);
    return kExitFailure;
  }
  return kExitOk;
}

void setup_serve(CLI::App& root) {
  auto opts = std::make_shared<ServeOptions>();
  CLI::App* cmd = add_subcommand(root, "serve", "A local web explorer and HTTP API over a store and books");
  CLI::Option* db = cmd->add_option("--db", opts->db, "The store (opened read-only)");
  CLI::Option* masters =
      cmd->add_option("--masters", opts->masters, "The store /masters answers from (default: --db's)");
  CLI::Option* lichess =
      cmd->add_option("--lichess", opts->lichess, "The store /lichess answers from (default: --db's)");
  // One of them at least; without --db, the others' first answers the remaining paths.
  CLI::Option_group* stores = cmd->add_option_group("stores");
  stores->add_options(db, masters, lichess);
  stores->require_option(1, 3);
  cmd->add_option(
      "--book", opts->books,
      "A Polyglot (.bin), Arena (.abk) or ChessBase (.ctg) book whose moves the page shows (repeatable)");
  cmd->add_option("--host", opts->host, "The address to listen on (default: 127.0.0.1, this machine only)");
  cmd->add_option("--port", opts->port, "The port (default: 8080; 0 picks a free one)")
      ->transform(whole_number(0, 65535));
  add_openings_option(*cmd, opts->openings);
  cmd->callback([opts] { set_exit_code(run_serve(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("serve", setup_serve);

}  // namespace bookforge::cli
