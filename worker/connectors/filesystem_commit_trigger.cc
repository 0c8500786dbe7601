#include "worker/connectors/filesystem_commit_trigger.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_path.h"

namespace eddy {

void PartitionCommitTrigger::AddPartition(const std::string& partition, int64_t now_ms) {
  pending_.try_emplace(partition, now_ms);
}

absl::StatusOr<std::vector<std::string>> PartitionCommitTrigger::TakeCommittable(int64_t watermark,
                                                                                 int64_t now_ms) {
  std::vector<std::string> due;
  for (auto it = pending_.begin(); it != pending_.end();) {
    bool ready = false;
    if (kind_ == FilesystemOptions::CommitTrigger::kPartitionTime && extractor_.has_value()) {
      ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionPath(it->first));
      ASSIGN_OR_RETURN(int64_t time, extractor_->ExtractMillis(spec));
      ready = watermark > time + delay_ms_;
    } else {
      // Flink's ProcTimeCommitPredicate: strictly after the first report plus the delay.
      ready = delay_ms_ == 0 || now_ms > it->second + delay_ms_;
    }
    if (!ready) {
      ++it;
      continue;
    }
    due.push_back(it->first);
    it = pending_.erase(it);
  }
  return due;
}

std::vector<std::string> PartitionCommitTrigger::TakeAll() {
  std::vector<std::string> all;
  for (const auto& [partition, first_reported] : pending_) all.push_back(partition);
  pending_.clear();
  return all;
}

std::string PartitionCommitTrigger::Encode() const {
  std::vector<std::string> lines;
  for (const auto& [partition, first_reported] : pending_) {
    lines.push_back(absl::StrCat(first_reported, " ", partition));
  }
  return absl::StrJoin(lines, "\n");
}

absl::Status PartitionCommitTrigger::Decode(std::string_view text_in) {
  const absl::string_view text(text_in.data(), text_in.size());
  pending_.clear();
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> parts = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    int64_t first_reported = 0;
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &first_reported) || parts[1].empty()) {
      return absl::DataLossError(absl::StrCat("the restored pending partitions hold a bad line '",
                                              std::string(line), "'"));
    }
    pending_[std::string(parts[1])] = first_reported;
  }
  return absl::OkStatus();
}

}  // namespace eddy
