// librdkafka handles as the kafka connectors use them: configurations built from a table's
// properties.* (every error names the table and the property), owning pointers that destroy their
// handle, and a topic's partitions and offsets looked up with a deadline. The connectors use
// librdkafka's C API: it consumes records in batches into an array without an object per record.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy {

struct KafkaHandleDeleter {
  void operator()(rd_kafka_t* rk) const;
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaHandleDeleter>;

struct KafkaTopicPartitionsDeleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const {
    rd_kafka_topic_partition_list_destroy(l);
  }
};
using KafkaPartitionList =
    std::unique_ptr<rd_kafka_topic_partition_list_t, KafkaTopicPartitionsDeleter>;

// How long a metadata or offset lookup may take.
inline constexpr int kKafkaRequestTimeoutMs = 30000;

// A configuration holding `properties` and then `overrides`; the caller owns it until rd_kafka_new
// takes it.
absl::StatusOr<rd_kafka_conf_t*> MakeKafkaConf(const std::string& table,
                                               const std::map<std::string, std::string>& properties,
                                               const std::map<std::string, std::string>& overrides);
// A producer or consumer on `conf` (taken in every case).
absl::StatusOr<KafkaHandle> NewKafkaHandle(const std::string& table, rd_kafka_type_t type,
                                           rd_kafka_conf_t* conf);

// The partitions of `topic`, ascending; an error when the topic does not exist.
absl::StatusOr<std::vector<int32_t>> KafkaPartitions(rd_kafka_t* rk, const std::string& table,
                                                     const std::string& topic);
// Every topic of the cluster (for topic-pattern).
absl::StatusOr<std::vector<std::string>> KafkaTopics(rd_kafka_t* rk, const std::string& table);

absl::Status KafkaError(const std::string& table, const std::string& what, rd_kafka_resp_err_t err);
absl::Status KafkaError(const std::string& table, const std::string& what,
                        rd_kafka_error_t* error);  // destroys `error`

}  // namespace eddy
