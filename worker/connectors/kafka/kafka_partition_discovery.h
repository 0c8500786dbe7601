// Which partitions a kafka or upsert-kafka source reads, and which subtask reads each: the
// partitions of its topics (or of every topic topic-pattern matches) listed from the cluster's
// metadata, once when the source opens and then periodically on a thread of its own
// (scan.topic-partition-discovery.interval), as Flink's KafkaSourceEnumerator does. The owner of a
// partition is a function of its topic's name and its number only, Flink's: the topic's Java
// hashCode picks a start subtask and the partitions follow round-robin from there, so a partition
// found later lands on one subtask, never moves while the job runs, and a restore at the same
// parallelism gives each subtask the partitions it had.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "re2/re2.h"

namespace eddy {

using KafkaTopicPartition = std::pair<std::string, int32_t>;

// The subtask in [0, parallelism) that reads `partition` of `topic` (Flink's split owner).
int KafkaSplitOwner(std::string_view topic, int32_t partition, int parallelism);

// The topics a source subscribes to: a list of names, or the topics whose whole name matches a
// pattern.
class KafkaSubscription {
 public:
  // An error naming the table when `pattern` is not a valid regular expression.
  static absl::StatusOr<KafkaSubscription> Make(std::string table, std::vector<std::string> topics,
                                                const std::string& pattern);
  // Every partition of the subscribed topics, sorted; a listed topic that does not exist is an
  // error.
  absl::StatusOr<std::vector<KafkaTopicPartition>> List(rd_kafka_t* rk) const;

 private:
  std::string table_;
  std::vector<std::string> topics_;
  std::shared_ptr<const RE2> pattern_;  // null: topics_
};

// Lists the subscription's partitions every `interval_ms` on its own thread until destroyed; the
// task takes the latest listing with Take(). `found` is called (from that thread) after each
// listing, to wake the task. The handle must outlive this object.
class KafkaPartitionDiscovery {
 public:
  KafkaPartitionDiscovery(rd_kafka_t* rk, KafkaSubscription subscription, int64_t interval_ms,
                          std::function<void()> found);
  ~KafkaPartitionDiscovery();
  KafkaPartitionDiscovery(const KafkaPartitionDiscovery&) = delete;
  KafkaPartitionDiscovery& operator=(const KafkaPartitionDiscovery&) = delete;

  // The listing made since the last call, if any (an error when the lookup failed).
  std::optional<absl::StatusOr<std::vector<KafkaTopicPartition>>> Take();

 private:
  void Run();

  rd_kafka_t* rk_;
  KafkaSubscription subscription_;
  std::chrono::milliseconds interval_;
  std::function<void()> found_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::optional<absl::StatusOr<std::vector<KafkaTopicPartition>>> latest_;
  std::thread thread_;
};

}  // namespace eddy
