#include "serve/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include "serve/static_files.h"

namespace bookforge::serve {
namespace {

void send(httplib::Response& res, const ApiResponse& answer) {
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type.c_str());
}

// The library answers some requests by itself with an empty body (a malformed request line or
// method, a request line or body over the limit); they get a JSON error like every other.
std::string_view reason_of(int status) {
  switch (status) {
    case 400:
      return "malformed request";
    case 404:
      return "no such path";
    case 413:
      return "request too large";
    case 414:
      return "request line too long";
    default:
      return status >= 500 ? "internal error" : "request refused";
  }
}

}  // namespace

Server::Server(Api& api, const ServerLimits& limits)
    : api_(api), limits_(limits), http_(std::make_unique<httplib::Server>()) {
  const size_t threads = limits_.threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_->set_payload_max_length(limits_.max_body_bytes);
  http_->set_read_timeout(limits_.read_timeout_s, 0);
  http_->set_keep_alive_timeout(limits_.keep_alive_timeout_s);
  http_->set_keep_alive_max_count(1000);
  http_->set_tcp_nodelay(true);
  // Debian's library listens with a backlog of 5: clients connecting at once past that wait for
  // a SYN retransmit (a second). The listening socket is kept to raise it once bound.
  http_->set_socket_options([this](socket_t socket) {
    httplib::default_socket_options(socket);
    listen_socket_ = socket;
  });
  add_routes();
}

Server::~Server() = default;

void Server::add_routes() {
  using httplib::Request;
  using httplib::Response;
  const auto explorer = [this](const Request& req, Response& res) { send(res, api_.explorer(req.params)); };
  for (const char* path : {"/api/explorer", "/explorer", "/masters", "/lichess"}) http_->Get(path, explorer);
  http_->Get("/api/position",
             [this](const Request& req, Response& res) { send(res, api_.position(req.params)); });
  http_->Get("/api/books", [this](const Request& req, Response& res) { send(res, api_.books(req.params)); });
  http_->Get("/api/engine", [this](const Request& req, Response& res) {
    send(res, api_.engine(req.params, req.remote_addr));
  });
  http_->Get("/api/game", [this](const Request& req, Response& res) { send(res, api_.game(req.params)); });
  http_->Get("/api/info", [this](const Request&, Response& res) { send(res, api_.info()); });
  http_->Get(".*", [](const Request& req, Response& res) {
    if (std::optional<StaticFile> file = find_static_file(req.path)) {
      res.set_content(file->body.data(), file->body.size(), std::string(file->content_type).c_str());
      return;
    }
    send(res, error_response(kStatusNotFound,
                             req.path == "/" ? "the page is not built into this binary" : "no such path"));
  });
  http_->set_error_handler([](const Request&, Response& res) {
    if (res.body.empty()) send(res, error_response(res.status, reason_of(res.status)));
  });
  http_->set_exception_handler([](const Request&, Response& res, std::exception_ptr) {
    send(res, error_response(kStatusInternalError, reason_of(kStatusInternalError)));
  });
}

Result<int> Server::bind(const std::string& host, int port) {
  const int bound = port == 0 ? http_->bind_to_any_port(host) : (http_->bind_to_port(host, port) ? port : -1);
  if (bound < 0) return Error{"cannot listen on " + host + ":" + std::to_string(port)};
  if (listen_socket_ >= 0) ::listen(listen_socket_, SOMAXCONN);
  return bound;
}

Status Server::run() {
  if (!http_->listen_after_bind()) return Error{"the listener stopped with an error"};
  return ok_status();
}

void Server::stop() {
  api_.stop_searches();
  http_->stop();
}

}  // namespace bookforge::serve
