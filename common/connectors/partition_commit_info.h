// What a filesystem sink writer reports to its table's single PartitionCommitter (Flink's
// PartitionCommitInfo), as rows of one columnar batch: after checkpoint n completed and the writer
// published its parts up to n, one row per partition it published since its last report, then one
// row with a NULL partition that closes the report. Rows keep their order on the exchange, so the
// closing row follows every partition of its report, however the batch was split on the way.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"

namespace eddy {

// The checkpoint id of a writer's last report: its input ended and every part it wrote is
// published; it reports nothing after it.
inline constexpr int64_t kEndOfInputReport = std::numeric_limits<int64_t>::max();

enum PartitionCommitInfoColumn : int {
  kCommitInfoCheckpoint = 0,  // BIGINT: the completed checkpoint (kEndOfInputReport at the end)
  kCommitInfoSubtask = 1,     // BIGINT: the writer subtask, 0-based
  kCommitInfoSubtasks = 2,    // BIGINT: the number of writer subtasks
  kCommitInfoPartition = 3,   // STRING: `k1=v1/k2=v2`; NULL in the closing row
  kCommitInfoWatermark = 4,   // BIGINT: closing row: the writer's watermark at the checkpoint
};

Schema PartitionCommitInfoSchema();

// Appends one report's rows to `out` (a batch of PartitionCommitInfoSchema's types).
class PartitionCommitInfoWriter {
 public:
  PartitionCommitInfoWriter(int64_t checkpoint_id, int subtask, int subtasks, ChangelogBatch* out)
      : checkpoint_id_(checkpoint_id), subtask_(subtask), subtasks_(subtasks), out_(out) {}
  void AddPartition(std::string_view partition);
  void Close(int64_t watermark);  // the closing row

 private:
  void AppendHead();
  int64_t checkpoint_id_;
  int subtask_;
  int subtasks_;
  ChangelogBatch* out_;
};

}  // namespace eddy
