// A small HTTP/1.1 server on plain sockets for the monitoring endpoints (Prometheus /metrics, the
// coordinator's REST API and dashboard): one thread accepts and serves one request per
// connection (`Connection: close`), so a handler must be quick. Requests are bounded (headers
// 16 KiB, body 1 MiB) and a client that sends nothing for a few seconds is dropped.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace eddy {

struct HttpRequest {
  std::string method;                          // GET, POST ...
  std::string path;                            // without the query string, e.g. /jobs/abc
  std::string query;                           // after '?', undecoded; empty when none
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  // The header's value, or "" when absent; `name` lower-case.
  std::string Header(const std::string& name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::map<std::string, std::string> headers;  // extra headers, e.g. WWW-Authenticate
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;

  // Listens on host:port (port 0: a free one, see port()) and serves from its own thread.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(const std::string& host, int port,
                                                           Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }
  // Stops accepting and joins the serving thread. Idempotent.
  void Stop();

 private:
  HttpServer(int listen_fd, int wake_fd, int port, Handler handler)
      : listen_fd_(listen_fd), wake_fd_(wake_fd), port_(port), handler_(std::move(handler)) {}
  void Serve();
  void ServeConnection(int fd);

  int listen_fd_;
  int wake_fd_;  // eventfd: Stop() wakes the poll with it
  int port_;
  Handler handler_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// "Not Found" and the like for a status code.
const char* HttpReasonPhrase(int status);

}  // namespace eddy
