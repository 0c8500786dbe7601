#include "common/base/json_string.h"

namespace eddy {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  size_t segment = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + segment, i - segment);
    segment = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:  // upper-case hex, as Jackson writes it
        out->append("\\u00");
        out->push_back(kHexDigits[c >> 4]);
        out->push_back(kHexDigits[c & 15]);
        break;
    }
  }
  out->append(s.data() + segment, s.size() - segment);
  out->push_back('"');
}

}  // namespace eddy
