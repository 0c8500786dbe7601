// For tests of event-time operators: an Output that records rows and watermarks in the one order
// the operator emitted them ("+I[...]" and "W<millis>"), with the rows' epoch-1970 timestamps
// written as their millis so that expectations stay readable.
#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/batch/changelog_batch.h"
#include "worker/operators/operator.h"

namespace eddy::testing {

// Timestamps as the print sink prints them ("1970-01-01 00:00:00.100") become their millis ("100").
inline std::string Compact(const std::string& row) {
  static const std::regex kTimestamp(R"(1970-01-01 (\d\d):(\d\d):(\d\d)\.(\d\d\d))");
  std::string out;
  auto it = std::sregex_iterator(row.begin(), row.end(), kTimestamp);
  size_t at = 0;
  for (; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out.append(row, at, static_cast<size_t>(m.position()) - at);
    const int64_t ms = ((std::stoll(m[1]) * 60 + std::stoll(m[2])) * 60 + std::stoll(m[3])) * 1000 +
                       std::stoll(m[4]);
    out += std::to_string(ms);
    at = static_cast<size_t>(m.position() + m.length());
  }
  out.append(row, at);
  return out;
}

class EventLog : public Output {
 public:
  absl::Status Emit(const ChangelogBatch& batch) override {
    ++batches;
    for (size_t r = 0; r < batch.num_rows(); ++r) events.push_back(Compact(FormatRow(batch, r)));
    return absl::OkStatus();
  }
  absl::Status EmitWatermark(const Watermark& w) override {
    events.push_back(absl::StrCat("W", w.millis, w.idle ? " idle" : ""));
    return absl::OkStatus();
  }
  // The events so far, leaving none.
  std::vector<std::string> Take() { return std::exchange(events, {}); }

  std::vector<std::string> events;
  int batches = 0;
};

}  // namespace eddy::testing
