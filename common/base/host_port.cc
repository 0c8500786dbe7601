#include "common/base/host_port.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

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

}  // namespace eddy
