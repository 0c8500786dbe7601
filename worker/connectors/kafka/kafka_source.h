// The kafka and upsert-kafka sources: each subtask reads the partitions of its topics (or of the
// topics topic-pattern matches) that KafkaSplitOwner gives it, from the offsets scan.startup.mode
// gives, and in a bounded scan up to the offsets scan.bounded.mode fixed when the scan started. An
// unbounded scan looks for new partitions and topics every scan.topic-partition-discovery.interval
// (KafkaPartitionDiscovery) and reads those it finds from their earliest offset, as Flink does.
// Records come in batches of up to 1024 rows, one partition per batch, so that a
// WatermarkAssigner after the source keeps one watermark per partition. The checkpoint holds each
// partition's next offset (and stop offset), and a restore resumes from them; a partition the
// checkpoint does not know (found later) starts from its earliest offset. Offsets are committed to
// properties.group.id when a checkpoint completes, for monitoring only. The upsert-kafka source
// turns its records into a full changelog by key (UpsertNormalizer), a retraction carrying the
// metadata columns of the row it retracts.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/kafka_connector.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/kafka/kafka_client.h"
#include "worker/connectors/kafka/kafka_partition_discovery.h"
#include "worker/connectors/kafka/kafka_record_reader.h"
#include "worker/connectors/kafka/upsert_normalizer.h"
#include "worker/operators/source.h"

namespace eddy {

class KafkaSource : public Source {
 public:
  static absl::StatusOr<std::unique_ptr<KafkaSource>> Create(const v1::TableSource& spec);
  ~KafkaSource() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  absl::Status Close() override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  // Records arriving wake the task (librdkafka's queue event), so the wait may be long.
  std::chrono::microseconds idle_wait() const override {
    return std::chrono::microseconds(wakeup_ ? 100000 : 2000);
  }

  int num_splits() const override { return static_cast<int>(splits_.size()); }
  int batch_split() const override { return batch_split_; }
  bool split_finished(int split) const override { return splits_[split].finished; }
  int64_t split_idle_timeout_ms() const override { return options_.watermark_idle_timeout_ms; }

 private:
  struct Split {
    std::string topic;
    int32_t partition = 0;
    int64_t next = -1;  // next offset to read; -1 until started or restored
    int64_t stop = -1;  // bounded: the first offset not read; -1: unbounded
    bool finished = false;
  };

  KafkaSource() = default;
  absl::Status Error(const std::string& message) const;
  absl::Status Start();
  absl::StatusOr<int64_t> StartOffset(const Split& s);
  absl::StatusOr<int64_t> StopOffset(const Split& s);
  absl::StatusOr<std::pair<int64_t, int64_t>> Watermarks(const Split& s);
  absl::StatusOr<int64_t> Committed(const Split& s);
  absl::StatusOr<int64_t> OffsetForTime(const Split& s, int64_t timestamp_ms);
  void Finish(int split);
  // Adds the partitions of `listed` this subtask owns and does not read yet, from their earliest
  // offset.
  absl::Status AddDiscovered(const std::vector<KafkaTopicPartition>& listed);
  int SplitOf(const rd_kafka_message_t* m);
  // Appends message `m` (of split `split`) to the reader; upsert tables normalize it first.
  absl::Status Append(const rd_kafka_message_t* m, int split);
  void ReleaseMessages();
  static std::string PositionKey(const Split& s, const char* what);

  std::string table_name_;
  ConnectorTable table_;
  KafkaOptions options_;
  std::vector<int> columns_;
  std::unique_ptr<KafkaRecordReader> reader_;
  std::string job_id_;
  int subtask_ = 0;
  int parallelism_ = 1;
  std::function<void()> wakeup_;  // the task's, called from librdkafka's threads

  KafkaHandle consumer_;
  rd_kafka_queue_t* queue_ = nullptr;
  std::vector<Split> splits_;
  absl::flat_hash_map<std::pair<const void*, int32_t>, int> split_of_;
  bool started_ = false;
  // Restored from a checkpoint taken after the start offsets were fixed: a partition without a
  // saved position was found later and starts from its earliest offset.
  bool restored_started_ = false;
  std::unique_ptr<KafkaPartitionDiscovery> discovery_;  // null: not discovering
  int remaining_ = 0;                                   // splits not finished
  int batch_split_ = 0;

  static constexpr size_t kMaxMessages = 1024;
  rd_kafka_message_t* messages_[kMaxMessages];
  size_t message_pos_ = 0, message_count_ = 0;

  UpsertNormalizer normalizer_;
  std::string previous_;
  std::string record_;  // a key's value with its metadata, as the normaliser keeps it
  // Offsets per checkpoint, committed to the group when it completes.
  std::map<int64_t, std::vector<std::pair<int, int64_t>>> pending_commits_;
};

}  // namespace eddy
