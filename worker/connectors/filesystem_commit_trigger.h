// The partition committer's trigger (sink.partition-commit.trigger, Flink's ProcTimeCommitTrigger
// and PartitionTimeCommitTrigger): the partitions reported published and not committed yet, and
// which of them are due once every writer reported a checkpoint: with 'process-time', those the
// committer first learnt of more than sink.partition-commit.delay ago by its own clock (all of them
// with no delay); with 'partition-time', those whose time (from their values,
// PartitionTimeExtractor) plus the delay the watermark of that checkpoint passed. Part of the
// committer's checkpointed state, with the time each pending partition was first reported.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/filesystem_connector.h"
#include "common/connectors/partition_time_extractor.h"

namespace eddy {

class PartitionCommitTrigger {
 public:
  // `extractor` is required with the 'partition-time' trigger.
  PartitionCommitTrigger(FilesystemOptions::CommitTrigger kind, int64_t delay_ms,
                         std::optional<PartitionTimeExtractor> extractor)
      : kind_(kind), delay_ms_(delay_ms), extractor_(std::move(extractor)) {}

  // A writer published parts of `partition`, reported when the committer's clock read `now_ms`
  // (epoch ms): pending until committed. A partition already pending keeps its first time.
  void AddPartition(const std::string& partition, int64_t now_ms);
  // The pending partitions due at the committer's processing time `now_ms` or by `watermark` (the
  // trigger's kind decides), removed from the pending ones, in name order. An error names a
  // partition whose values make no time.
  absl::StatusOr<std::vector<std::string>> TakeCommittable(int64_t watermark, int64_t now_ms);
  // Every pending partition (the input ended), removed.
  std::vector<std::string> TakeAll();
  bool empty() const { return pending_.empty(); }

  // "<first reported ms> <partition>" per line.
  std::string Encode() const;
  absl::Status Decode(std::string_view text);

 private:
  FilesystemOptions::CommitTrigger kind_;
  int64_t delay_ms_;
  std::optional<PartitionTimeExtractor> extractor_;
  std::map<std::string, int64_t> pending_;  // partition -> first reported (epoch ms)
};

}  // namespace eddy
