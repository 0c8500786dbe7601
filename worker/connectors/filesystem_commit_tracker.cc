#include "worker/connectors/filesystem_commit_tracker.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/connectors/partition_commit_info.h"

namespace eddy {

bool CommitReportTracker::Complete(const std::set<int>& reported) const {
  for (int s = 0; s < subtasks_; ++s) {
    if (!reported.count(s) && !ended_.count(s)) return false;
  }
  return true;
}

absl::StatusOr<std::optional<int64_t>> CommitReportTracker::Add(int64_t checkpoint_id, int subtask,
                                                                int subtasks) {
  if (subtasks < 1 || subtask < 0 || subtask >= subtasks) {
    return absl::InvalidArgumentError(
        absl::StrCat("a commit report names subtask ", subtask, " of ", subtasks));
  }
  if (subtasks != subtasks_) {
    subtasks_ = subtasks;
    reported_.clear();
    ended_.clear();
  }
  if (checkpoint_id == kEndOfInputReport) {
    ended_.insert(subtask);
    if (static_cast<int>(ended_.size()) == subtasks_) {
      reported_.clear();
      return kEndOfInputReport;
    }
  } else {
    reported_[checkpoint_id].insert(subtask);
  }
  // The newest checkpoint that every subtask reported (or ended before).
  for (auto it = reported_.rbegin(); it != reported_.rend(); ++it) {
    if (!Complete(it->second)) continue;
    const int64_t complete = it->first;
    reported_.erase(reported_.begin(), reported_.upper_bound(complete));
    return complete;
  }
  return std::nullopt;
}

// One line per entry: "subtasks <n>", "ended <s>,<s>", "<checkpoint> <s>,<s>".
std::string CommitReportTracker::Encode() const {
  std::vector<std::string> lines = {absl::StrCat("subtasks ", subtasks_),
                                    absl::StrCat("ended ", absl::StrJoin(ended_, ","))};
  for (const auto& [id, subtasks] : reported_) {
    lines.push_back(absl::StrCat(id, " ", absl::StrJoin(subtasks, ",")));
  }
  return absl::StrJoin(lines, "\n");
}

absl::StatusOr<CommitReportTracker> CommitReportTracker::Decode(std::string_view text_in) {
  const absl::string_view text(text_in.data(), text_in.size());
  CommitReportTracker t;
  auto bad = [&](absl::string_view line) {
    return absl::DataLossError(
        absl::StrCat("the restored commit reports hold a bad line '", std::string(line), "'"));
  };
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> parts = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (parts.size() != 2) return bad(line);
    std::set<int> subtasks;
    if (parts[0] == "subtasks") {
      if (!absl::SimpleAtoi(parts[1], &t.subtasks_) || t.subtasks_ < 0) return bad(line);
      continue;
    }
    for (absl::string_view s : absl::StrSplit(parts[1], ',', absl::SkipEmpty())) {
      int subtask = 0;
      if (!absl::SimpleAtoi(s, &subtask) || subtask < 0) return bad(line);
      subtasks.insert(subtask);
    }
    int64_t id = 0;
    if (parts[0] == "ended") {
      t.ended_ = std::move(subtasks);
    } else if (absl::SimpleAtoi(parts[0], &id)) {
      t.reported_[id] = std::move(subtasks);
    } else {
      return bad(line);
    }
  }
  return t;
}

}  // namespace eddy
