#include "common/base/host_port.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace eddy {

absl::StatusOr<std::string> WithDefaultPort(const std::string& address, int default_port) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", address, "' is not an address of the form HOST[:PORT]: ", why));
  };
  std::string host = address;
  std::string port;
  if (!address.empty() && address.front() == '[') {  // [IPv6] or [IPv6]:port
    const size_t close = address.find(']');
    if (close == std::string::npos) return bad("missing ']'");
    host = address.substr(0, close + 1);
    const std::string rest = address.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad("expected ':' after ']'");
      port = rest.substr(1);
      if (port.empty()) return bad("empty port");
    }
  } else if (const size_t colon = address.rfind(':'); colon != std::string::npos) {
    if (address.find(':') != colon) return bad("an IPv6 address needs brackets, [addr]:port");
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
    if (port.empty()) return bad("empty port");
  }
  if (host.empty() || host == "[]") return bad("empty host");
  int n = default_port;
  if (!port.empty() && (!absl::SimpleAtoi(port, &n) || n < 1 || n > 65535)) {
    return bad(absl::StrCat("port '", port, "' is not a number from 1 to 65535"));
  }
  return absl::StrCat(host, ":", n);
}

absl::StatusOr<std::string> WithDefaultPorts(const std::string& addresses, int default_port) {
  std::vector<std::string> out;
  for (absl::string_view a : absl::StrSplit(addresses, ',')) {
    absl::StatusOr<std::string> one = WithDefaultPort(std::string(a), default_port);
    if (!one.ok()) return one.status();
    out.push_back(*one);
  }
  return absl::StrJoin(out, ",");
}

absl::StatusOr<std::string> ChannelTarget(const std::string& addresses) {
  if (addresses.find(',') == std::string::npos) return addresses;
  std::vector<std::string> v4, v6;
  for (absl::string_view a : absl::StrSplit(addresses, ',')) {
    const std::string address(a);
    const size_t colon = address.rfind(':');
    std::string host = address.substr(0, colon);
    const std::string port = address.substr(colon + 1);
    if (!host.empty() && host.front() == '[') host = host.substr(1, host.size() - 2);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found);
    if (rc != 0 || found == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot resolve '", address, "': ", ::gai_strerror(rc)));
    }
    // An IPv4 address when the host has one (localhost: 127.0.0.1 rather than ::1).
    const addrinfo* pick = found;
    for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
      if (a->ai_family == AF_INET) {
        pick = a;
        break;
      }
    }
    char text[INET6_ADDRSTRLEN] = {};
    if (pick->ai_family == AF_INET) {
      ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(pick->ai_addr)->sin_addr, text,
                  sizeof(text));
      v4.push_back(absl::StrCat(text, ":", port));
    } else {
      ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(pick->ai_addr)->sin6_addr, text,
                  sizeof(text));
      v6.push_back(absl::StrCat("[", text, "]:", port));
    }
    ::freeaddrinfo(found);
  }
  if (!v4.empty() && !v6.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the coordinator addresses '", addresses,
                                                   "' mix IPv4 and IPv6 hosts; use one family"));
  }
  return v4.empty() ? absl::StrCat("ipv6:", absl::StrJoin(v6, ","))
                    : absl::StrCat("ipv4:", absl::StrJoin(v4, ","));
}

}  // namespace eddy
