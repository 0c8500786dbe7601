#include "common/connectors/partition_commit_info.h"

namespace eddy {

Schema PartitionCommitInfoSchema() {
  Schema s;
  s.fields = {{"checkpoint_id", DataType::BigInt()},
              {"subtask", DataType::BigInt()},
              {"subtasks", DataType::BigInt()},
              {"partition", DataType::String()},
              {"watermark", DataType::BigInt()}};
  return s;
}

void PartitionCommitInfoWriter::AppendHead() {
  out_->mutable_column(kCommitInfoCheckpoint).Append<int64_t>(checkpoint_id_);
  out_->mutable_column(kCommitInfoSubtask).Append<int64_t>(subtask_);
  out_->mutable_column(kCommitInfoSubtasks).Append<int64_t>(subtasks_);
  out_->mutable_kinds().push_back(RowKind::kInsert);
}

void PartitionCommitInfoWriter::AddPartition(std::string_view partition) {
  AppendHead();
  out_->mutable_column(kCommitInfoPartition).AppendString(partition);
  out_->mutable_column(kCommitInfoWatermark).AppendNull();
}

void PartitionCommitInfoWriter::Close(int64_t watermark) {
  AppendHead();
  out_->mutable_column(kCommitInfoPartition).AppendNull();
  out_->mutable_column(kCommitInfoWatermark).Append<int64_t>(watermark);
}

}  // namespace eddy
