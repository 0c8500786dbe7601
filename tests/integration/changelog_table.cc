#include "tests/integration/changelog_table.h"

#include <string_view>

namespace eddy::testing {
namespace {

// The key of a row body "f1, f2, ..." (without brackets): its first `n` fields.
std::string_view KeyOf(std::string_view body, int n) {
  size_t end = 0;
  for (int i = 0; i < n; ++i) {
    size_t comma = body.find(", ", end);
    if (comma == std::string_view::npos) return body;
    end = comma + (i + 1 < n ? 2 : 0);
  }
  return body.substr(0, end);
}

}  // namespace

ChangelogTable ReplayChangelog(const std::string& print_output, int key_fields) {
  ChangelogTable t;
  std::string_view all(print_output);
  size_t pos = 0;
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    if (nl == std::string_view::npos) nl = all.size();
    std::string_view line = all.substr(pos, nl - pos);
    pos = nl + 1;
    size_t prefix = line.find("> ");
    size_t kind_at = 0;
    if (prefix != std::string_view::npos && line.find('[') > prefix) kind_at = prefix + 2;
    if (line.size() < kind_at + 4 || line.back() != ']' || line[kind_at + 2] != '[') continue;
    std::string_view kind = line.substr(kind_at, 2);
    std::string_view body = line.substr(kind_at + 3, line.size() - kind_at - 4);
    std::string key(KeyOf(body, key_fields));
    ++t.messages;
    auto it = t.rows.find(key);
    if (kind == "+I" || kind == "+U") {
      if (it != t.rows.end()) {
        t.errors.push_back(std::string(line) + ": key already holds [" + it->second + "]");
      }
      t.rows[key] = std::string(body);
    } else if (kind == "-U" || kind == "-D") {
      if (it == t.rows.end() || it->second != body) {
        t.errors.push_back(std::string(line) + ": retracts a row the table does not hold" +
                           (it == t.rows.end() ? "" : " (holds [" + it->second + "])"));
      } else {
        t.rows.erase(it);
      }
    } else {
      --t.messages;
    }
  }
  return t;
}

}  // namespace eddy::testing
