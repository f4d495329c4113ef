#include "serve/server.h"

#include <unistd.h>

#include "serve/arrived_request_stream.h"
#include "serve/listen_socket.h"
#include "serve/room_server.h"
#include "serve/static_files.h"

namespace bookforge::serve {
namespace {

constexpr int kStatusMethodNotAllowed = 405;
constexpr int kStatusMisdirected = 421;

// Every answer of the API may be read by a page of any site, as lichess's explorer allows: it
// is read-only and takes no credentials.
void send(httplib::Response& res, const ApiResponse& answer) {
  res.set_header("Access-Control-Allow-Origin", "*");
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type.c_str());
}

// The library answers some requests by itself with an empty body (a malformed request line or
// an unknown method); they get a JSON error like every other. (Requests too large never reach
// it: serve/waiting_room.h refuses them.)
std::string_view reason_of(int status) {
  if (status == kStatusBadRequest) return "malformed request";
  return status >= 500 ? "internal error" : "request refused";
}

std::optional<std::string> host_header(const httplib::Request& req) {
  if (!req.has_header("Host")) return std::nullopt;
  return req.get_header_value("Host");
}

}  // namespace

Server::Server(Api& api, const ServerLimits& limits)
    : api_(api), http_(std::make_unique<RoomServer>(limits.threads, limits.room, limits.write_timeout)) {
  add_routes();
}

void Server::on_failure(std::function<void(const std::string&)> log) {
  http_->set_logger([log = std::move(log)](const httplib::Request& req, const httplib::Response& res) {
    if (res.status >= 500)
      log(req.method + " " + req.target + ": " + std::to_string(res.status) + " " + res.body);
  });
}

Server::~Server() {
  if (listen_socket_ >= 0) ::close(listen_socket_);
}

void Server::add_routes() {
  using httplib::Request;
  using httplib::Response;
  // Before the routes, and before any body would be read: a request for another site's name,
  // or with a method this read-only API has no use for, is answered at once.
  http_->set_pre_routing_handler([this](const Request& req, Response& res) {
    if (const std::optional<std::string> host = host_header(req); !hosts_ || !hosts_->allows(host)) {
      send(res, error_response(kStatusMisdirected,
                               "Host " + quoted_value(host.value_or("")) + ": this server answers to " +
                                   (hosts_ ? hosts_->describe() : std::string("no name"))));
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method != "GET" && req.method != "HEAD") {
      res.set_header("Allow", "GET, HEAD");
      send(res, error_response(kStatusMethodNotAllowed,
                               "method " + req.method + " not allowed: the API only reads"));
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // lila-openingexplorer's paths, its old ones (/master) too.
  for (auto [path, shape] :
       {std::pair{"/api/explorer", ExplorerPath::kOwn}, std::pair{"/explorer", ExplorerPath::kOwn},
        std::pair{"/masters", ExplorerPath::kMasters}, std::pair{"/master", ExplorerPath::kMasters},
        std::pair{"/lichess", ExplorerPath::kLichess}})
    http_->Get(path, [this, shape](const Request& req, Response& res) {
      send(res, api_.explorer(req.params, shape));
    });
  http_->Get("/lichess/history", [this](const Request& req, Response& res) {
    send(res, api_.history(req.params, ExplorerPath::kLichess));
  });
  for (const char* path : {"/player", "/personal"})
    http_->Get(path, [this](const Request& req, Response& res) { send(res, api_.player(req.params)); });
  for (const char* path : {R"(/masters/pgn/([^/]*))", R"(/master/pgn/([^/]*))"})
    http_->Get(path,
               [this](const Request& req, Response& res) { send(res, api_.masters_pgn(req.matches[1])); });
  http_->Get("/api/position",
             [this](const Request& req, Response& res) { send(res, api_.position(req.params)); });
  http_->Get("/api/books", [this](const Request& req, Response& res) { send(res, api_.books(req.params)); });
  http_->Get("/api/engine", [this](const Request& req, Response& res) {
    const int connection = RoomServer::serving_socket();
    send(res, api_.engine(req.params, req.remote_addr, [connection] { return peer_has_left(connection); }));
  });
  http_->Get("/api/players",
             [this](const Request& req, Response& res) { send(res, api_.players(req.params)); });
  http_->Get("/api/novelty",
             [this](const Request& req, Response& res) { send(res, api_.novelty(req.params)); });
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
  Result<ListenSocket> listening = open_listen_socket(host, port);
  if (!listening) return listening.error();
  if (listen_socket_ >= 0) ::close(listen_socket_);
  listen_socket_ = listening->fd;
  hosts_.emplace(host);
  return listening->port;
}

Status Server::run() {
  if (listen_socket_ < 0) return Error{"the server is not bound to a port"};
  const int listening = listen_socket_;
  listen_socket_ = -1;  // the HTTP server closes it
  return http_->serve(listening);
}

void Server::stop() {
  api_.stop_searches();
  http_->stop_serving();
}

}  // namespace bookforge::serve
