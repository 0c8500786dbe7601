#include "worker/connectors/kafka/kafka_client.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace eddy {

void KafkaHandleDeleter::operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }

absl::Status KafkaError(const std::string& table, const std::string& what,
                        rd_kafka_resp_err_t err) {
  return absl::UnavailableError(
      absl::StrCat("table '", table, "': ", what, ": ", rd_kafka_err2str(err)));
}

absl::Status KafkaError(const std::string& table, const std::string& what,
                        rd_kafka_error_t* error) {
  std::string text = rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  return absl::UnavailableError(absl::StrCat("table '", table, "': ", what, ": ", text));
}

absl::StatusOr<rd_kafka_conf_t*> MakeKafkaConf(
    const std::string& table, const std::map<std::string, std::string>& properties,
    const std::map<std::string, std::string>& overrides) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof(error));
  for (const auto* map : {&properties, &overrides}) {
    for (const auto& [key, value] : *map) {
      if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) !=
          RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return absl::InvalidArgumentError(
            absl::StrCat("table '", table, "': property 'properties.", key, "': ", error));
      }
    }
  }
  return conf;
}

absl::StatusOr<KafkaHandle> NewKafkaHandle(const std::string& table, rd_kafka_type_t type,
                                           rd_kafka_conf_t* conf) {
  char error[512];
  rd_kafka_t* rk = rd_kafka_new(type, conf, error, sizeof(error));
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    return absl::InvalidArgumentError(absl::StrCat("table '", table, "': ", error));
  }
  return KafkaHandle(rk);
}

absl::StatusOr<std::vector<int32_t>> KafkaPartitions(rd_kafka_t* rk, const std::string& table,
                                                     const std::string& topic) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 0, rkt, &md, kKafkaRequestTimeoutMs);
  rd_kafka_topic_destroy(rkt);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError(table, absl::StrCat("metadata of topic '", topic, "'"), err);
  }
  std::vector<int32_t> out;
  absl::Status status;
  if (md->topic_cnt != 1 || md->topics[0].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    status = KafkaError(
        table, absl::StrCat("topic '", topic, "'"),
        md->topic_cnt == 1 ? md->topics[0].err : RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART);
  } else {
    for (int i = 0; i < md->topics[0].partition_cnt; ++i) {
      out.push_back(md->topics[0].partitions[i].id);
    }
    if (out.empty())
      status = absl::NotFoundError(
          absl::StrCat("table '", table, "': topic '", topic, "' has no partitions"));
  }
  rd_kafka_metadata_destroy(md);
  if (!status.ok()) return status;
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<std::vector<std::string>> KafkaTopics(rd_kafka_t* rk, const std::string& table) {
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &md, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return KafkaError(table, "metadata of the cluster", err);
  std::vector<std::string> out;
  for (int i = 0; i < md->topic_cnt; ++i) out.push_back(md->topics[i].topic);
  rd_kafka_metadata_destroy(md);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace eddy
