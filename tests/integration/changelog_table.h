// Replays print-sink output (`+I[...]`, `-U[...]`, `+U[...]`, `-D[...]`, with or without the `N> `
// / `id:N> ` prefixes) into the table it describes: the last +I/+U row per key, minus deletes.
// Checks the changelog on the way: an insert must be for an absent key, a retraction must name the
// current row.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace eddy::testing {

struct ChangelogTable {
  std::map<std::string, std::string> rows;  // key fields joined by ", " -> whole row text
  std::vector<std::string> errors;          // changelog violations, one line each
  long long messages = 0;                   // changelog lines replayed
};

// `key_fields`: how many leading fields form the key. Lines that are not changelog rows are
// ignored.
ChangelogTable ReplayChangelog(const std::string& print_output, int key_fields);

}  // namespace eddy::testing
