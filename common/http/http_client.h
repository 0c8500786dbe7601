// A minimal blocking HTTP/1.1 client for the monitoring endpoints: one request per connection,
// the whole response read until the server closes it. For tests and tools, not for data paths.
#pragma once

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "common/http/http_server.h"

namespace eddy {

struct HttpClientRequest {
  std::string method = "GET";
  std::string path = "/";  // with the query string, if any
  std::map<std::string, std::string> headers;
  std::string body;
  int timeout_ms = 10000;
};

// The response's status, Content-Type (content_type), other headers (names lower-cased) and body.
absl::StatusOr<HttpResponse> HttpFetch(const std::string& host, int port,
                                       const HttpClientRequest& request);
inline absl::StatusOr<HttpResponse> HttpGet(const std::string& host, int port,
                                            const std::string& path) {
  HttpClientRequest r;
  r.path = path;
  return HttpFetch(host, port, r);
}

}  // namespace eddy
