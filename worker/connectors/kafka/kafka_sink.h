// The kafka and upsert-kafka sinks. kafka appends each row as a record (sink.partitioner picks the
// partition: the producer's by key, 'fixed' subtask i -> partition i mod n, 'round-robin'); upsert-
// kafka writes +I and +U rows as records of their key and -D rows as tombstones (the key, a null
// value), and skips -U.
//
// sink.delivery-guarantee:
//   none           records are handed to the producer; a checkpoint does not wait for them.
//   at-least-once  a checkpoint waits until every record sent before it is acknowledged.
//   exactly-once   the records of each checkpoint interval are kept (and saved in the checkpoint)
//                  and written when the checkpoint completes, in one transaction of the subtask's
//                  transactional producer ('<sink.transactional-id-prefix>-<subtask>'), together
//                  with a marker: the checkpoint id, committed as the offset of the consumer group
//                  '<transactional id>-commits' in the transaction. Starting the producer aborts a
//                  transaction an earlier attempt left open; a restore writes the saved intervals
//                  again unless the marker shows they were committed. Readers with
//                  isolation.level=read_committed see every row once.
#pragma once

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/connector_factory.h"
#include "common/connectors/kafka_connector.h"
#include "eddy/v1/plan.pb.h"
#include "worker/connectors/kafka/kafka_client.h"
#include "worker/connectors/kafka/kafka_record_writer.h"
#include "worker/operators/operator.h"

namespace eddy {

class KafkaSink : public Operator {
 public:
  static absl::StatusOr<std::unique_ptr<KafkaSink>> Create(const v1::TableSink& spec,
                                                           const Schema& input);
  ~KafkaSink() override;

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;
  absl::Status Finish() override;
  absl::Status OnTick(std::chrono::steady_clock::time_point now) override;
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;
  bool HasUncommittedOutput() const override;
  absl::Status Close() override;

 private:
  // The records of one checkpoint interval (exactly-once), in one buffer.
  struct Interval {
    std::string bytes;  // per record: partition, timestamp, key, value, headers (varint-framed)
    size_t records = 0;
  };

  KafkaSink() = default;
  absl::Status Error(const std::string& message) const;
  // `headers`: an encoded MAP<STRING, BYTES> (kafka_headers.h), or null for none.
  absl::Status Produce(int32_t partition, const std::string_view* key,
                       const std::string_view* value, int64_t timestamp,
                       const std::string_view* headers);
  absl::Status CheckDelivery();
  absl::Status Flush();
  int32_t PartitionFor(bool has_key);
  // Writes the intervals up to `checkpoint_id` in one transaction with the marker.
  absl::Status CommitIntervals(int64_t checkpoint_id);
  absl::StatusOr<int64_t> CommittedMarker();

  std::string table_name_;
  ConnectorTable table_;
  KafkaOptions options_;
  std::unique_ptr<KafkaRecordWriter> writer_;
  std::string topic_;
  bool checkpointing_ = false;
  int subtask_ = 0;
  const std::atomic<bool>* cancelled_ = nullptr;

  KafkaHandle producer_;
  rd_kafka_topic_t* rkt_ = nullptr;
  int32_t num_partitions_ = 0;
  uint64_t round_robin_ = 0;
  std::string transactional_id_;
  KafkaHandle marker_consumer_;  // exactly-once: reads and commits the marker

  Interval current_;
  std::map<int64_t, Interval> pending_;  // snapshotted intervals, by checkpoint id
};

}  // namespace eddy
