#include "worker/connectors/kafka/kafka_partition_discovery.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/connectors/kafka/kafka_client.h"

namespace eddy {

int KafkaSplitOwner(std::string_view topic, int32_t partition, int parallelism) {
  // Java's String.hashCode over the name (Kafka topic names are ASCII, one UTF-16 unit a byte),
  // with Java's 32-bit wrap-around.
  uint32_t hash = 0;
  for (char c : topic) hash = hash * 31u + static_cast<unsigned char>(c);
  const uint32_t start = ((hash * 31u) & 0x7FFFFFFFu) % static_cast<uint32_t>(parallelism);
  return static_cast<int>((start + static_cast<uint32_t>(partition)) %
                          static_cast<uint32_t>(parallelism));
}

absl::StatusOr<KafkaSubscription> KafkaSubscription::Make(std::string table,
                                                          std::vector<std::string> topics,
                                                          const std::string& pattern) {
  KafkaSubscription s;
  s.table_ = std::move(table);
  s.topics_ = std::move(topics);
  if (!pattern.empty()) {
    auto re = std::make_shared<const RE2>(pattern);
    if (!re->ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("table '", s.table_, "': 'topic-pattern': ", re->error()));
    }
    s.pattern_ = std::move(re);
  }
  return s;
}

absl::StatusOr<std::vector<KafkaTopicPartition>> KafkaSubscription::List(rd_kafka_t* rk) const {
  std::vector<std::string> topics = topics_;
  if (pattern_ != nullptr) {
    ASSIGN_OR_RETURN(std::vector<std::string> all, KafkaTopics(rk, table_));
    for (const std::string& t : all) {
      if (RE2::FullMatch(t, *pattern_)) topics.push_back(t);
    }
  }
  std::sort(topics.begin(), topics.end());
  std::vector<KafkaTopicPartition> out;
  for (const std::string& t : topics) {
    ASSIGN_OR_RETURN(std::vector<int32_t> partitions, KafkaPartitions(rk, table_, t));
    for (int32_t p : partitions) out.emplace_back(t, p);
  }
  return out;
}

KafkaPartitionDiscovery::KafkaPartitionDiscovery(rd_kafka_t* rk, KafkaSubscription subscription,
                                                 int64_t interval_ms, std::function<void()> found)
    : rk_(rk),
      subscription_(std::move(subscription)),
      interval_(interval_ms),
      found_(std::move(found)),
      thread_([this] { Run(); }) {}

KafkaPartitionDiscovery::~KafkaPartitionDiscovery() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::optional<absl::StatusOr<std::vector<KafkaTopicPartition>>> KafkaPartitionDiscovery::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<absl::StatusOr<std::vector<KafkaTopicPartition>>> out = std::move(latest_);
  latest_.reset();
  return out;
}

void KafkaPartitionDiscovery::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (cv_.wait_for(lock, interval_, [this] { return stop_; })) return;
    lock.unlock();
    absl::StatusOr<std::vector<KafkaTopicPartition>> listed = subscription_.List(rk_);
    lock.lock();
    if (stop_) return;
    latest_ = std::move(listed);
    if (found_) {
      lock.unlock();
      found_();
      lock.lock();
    }
  }
}

}  // namespace eddy
