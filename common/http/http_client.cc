#include "common/http/http_client.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace eddy {

absl::StatusOr<HttpResponse> HttpFetch(const std::string& host, int port,
                                       const HttpClientRequest& request) {
  const std::string where = absl::StrCat(host, ":", port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) return absl::UnavailableError(absl::StrCat(where, ": ", ::gai_strerror(rc)));
  int fd = -1;
  std::string error;
  for (addrinfo* a = res; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      error = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(res);
  if (fd < 0) return absl::UnavailableError(absl::StrCat("cannot connect to ", where, ": ", error));

  std::string out =
      absl::StrCat(request.method, " ", request.path, " HTTP/1.1\r\nHost: ", where,
                   "\r\nConnection: close\r\nContent-Length: ", request.body.size(), "\r\n");
  for (const auto& [name, value] : request.headers)
    absl::StrAppend(&out, name, ": ", value, "\r\n");
  absl::StrAppend(&out, "\r\n", request.body);
  for (size_t off = 0; off < out.size();) {
    ssize_t n = ::send(fd, out.data() + off, out.size() - off, MSG_NOSIGNAL);
    if (n <= 0) {
      ::close(fd);
      return absl::UnavailableError(absl::StrCat("sending to ", where, ": ", std::strerror(errno)));
    }
    off += static_cast<size_t>(n);
  }
  std::string in;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(request.timeout_ms);
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      ::close(fd);
      return absl::DeadlineExceededError(absl::StrCat("no complete response from ", where));
    }
    char buf[16384];
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  size_t head_end = in.find("\r\n\r\n");
  if (head_end == std::string::npos) {
    return absl::DataLossError(absl::StrCat("malformed HTTP response from ", where));
  }
  std::vector<std::string> lines = absl::StrSplit(in.substr(0, head_end), "\r\n");
  std::vector<std::string> status_line = absl::StrSplit(lines[0], absl::MaxSplits(' ', 2));
  HttpResponse resp;
  if (status_line.size() < 2 || !absl::SimpleAtoi(status_line[1], &resp.status)) {
    return absl::DataLossError(absl::StrCat("malformed HTTP status line from ", where));
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    size_t colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    std::string name = absl::AsciiStrToLower(lines[i].substr(0, colon));
    std::string value(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
    if (name == "content-type") {
      resp.content_type = value;
    } else {
      resp.headers[name] = value;
    }
  }
  resp.body = in.substr(head_end + 4);
  return resp;
}

}  // namespace eddy
