#include "tests/integration/kafka_test_support.h"

#include <librdkafka/rdkafka.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "tests/integration/process_cluster.h"

namespace eddy::testing {

KafkaMockProcess::KafkaMockProcess(const std::string& dir, int brokers,
                                   const std::vector<std::string>& topics) {
  std::vector<std::string> argv = {EddyBinary("eddy-kafka-mock"), "--brokers",
                                   std::to_string(brokers)};
  for (const std::string& t : topics) {
    argv.push_back("--topic");
    argv.push_back(t);
  }
  dir_ = dir;
  const std::string out = dir + "/kafka-mock.out";
  {
    std::ofstream commands(dir + "/kafka-mock.in");  // empty; CreateTopic appends to it
  }
  process_ = Subprocess::Start(argv, out, dir + "/kafka-mock.err", dir + "/kafka-mock.in");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = ReadFileToString(out);
    const size_t nl = text.find('\n');
    if (nl != std::string::npos) {
      bootstrap_ = text.substr(0, nl);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  error_ =
      "eddy-kafka-mock printed no bootstrap address: " + ReadFileToString(dir + "/kafka-mock.err");
}

std::string KafkaMockProcess::CreateTopic(const std::string& name, int partitions) {
  {
    std::ofstream commands(dir_ + "/kafka-mock.in", std::ios::app);
    commands << "create-topic " << name << " " << partitions << "\n";
  }
  const std::string done = "\ncreated topic " + name + "\n";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (ReadFileToString(dir_ + "/kafka-mock.out").find(done) != std::string::npos) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "eddy-kafka-mock did not create topic '" + name +
         "': " + ReadFileToString(dir_ + "/kafka-mock.err");
}

KafkaMockProcess::~KafkaMockProcess() {
  if (process_.started()) {
    process_.Signal(SIGTERM);
    process_.Wait(10000);
  }
}

namespace {

rd_kafka_conf_t* Conf(const std::string& bootstrap) {
  char error[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof(error));
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof(error));
  return conf;
}

}  // namespace

std::string ProduceRecords(const std::string& bootstrap, const std::string& topic,
                           const std::vector<KafkaRecord>& records) {
  char error[256];
  rd_kafka_conf_t* conf = Conf(bootstrap);
  rd_kafka_conf_set(conf, "partitioner", "murmur2_random", error, sizeof(error));
  rd_kafka_t* p = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (p == nullptr) return error;
  std::string result;
  for (const KafkaRecord& r : records) {
    const int32_t partition = r.partition < 0 ? RD_KAFKA_PARTITION_UA : r.partition;
    void* key = r.key ? const_cast<char*>(r.key->data()) : nullptr;
    const size_t key_size = r.key ? r.key->size() : 0;
    void* value = r.value ? const_cast<char*>(r.value->data()) : nullptr;
    const size_t value_size = r.value ? r.value->size() : 0;
    for (;;) {
      const rd_kafka_resp_err_t err = rd_kafka_producev(
          p, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
          RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key, key_size),
          RD_KAFKA_V_VALUE(value, value_size), RD_KAFKA_V_TIMESTAMP(r.timestamp), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        result = rd_kafka_err2str(err);
        break;
      }
      rd_kafka_poll(p, 10);
    }
    if (!result.empty()) break;
  }
  if (rd_kafka_flush(p, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR && result.empty()) {
    result = "records not acknowledged within 30 s";
  }
  rd_kafka_destroy(p);
  return result;
}

std::vector<KafkaRecord> ConsumeTopic(const std::string& bootstrap, const std::string& topic,
                                      bool read_committed, std::string* error_out) {
  char error[256];
  std::vector<KafkaRecord> out;
  rd_kafka_conf_t* conf = Conf(bootstrap);
  rd_kafka_conf_set(conf, "group.id", "eddy-test-reader", error, sizeof(error));
  rd_kafka_conf_set(conf, "enable.partition.eof", "true", error, sizeof(error));
  rd_kafka_conf_set(conf, "enable.auto.commit", "false", error, sizeof(error));
  rd_kafka_conf_set(conf, "isolation.level", read_committed ? "read_committed" : "read_uncommitted",
                    error, sizeof(error));
  rd_kafka_t* c = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof(error));
  if (c == nullptr) {
    if (error_out) *error_out = error;
    return out;
  }
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(c, topic.c_str(), nullptr);
  rd_kafka_metadata(c, 0, rkt, &md, 10000);
  rd_kafka_topic_destroy(rkt);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(8);
  int partitions = 0;
  if (md != nullptr && md->topic_cnt == 1) {
    for (int i = 0; i < md->topics[0].partition_cnt; ++i) {
      rd_kafka_topic_partition_list_add(list, topic.c_str(), md->topics[0].partitions[i].id)
          ->offset = RD_KAFKA_OFFSET_BEGINNING;
      ++partitions;
    }
  }
  if (md != nullptr) rd_kafka_metadata_destroy(md);
  rd_kafka_assign(c, list);
  rd_kafka_topic_partition_list_destroy(list);
  int at_end = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (at_end < partitions && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(c, 100);
    if (m == nullptr) continue;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      ++at_end;
    } else if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      KafkaRecord r;
      r.partition = m->partition;
      r.offset = m->offset;
      if (m->key) r.key = std::string(static_cast<const char*>(m->key), m->key_len);
      if (m->payload) r.value = std::string(static_cast<const char*>(m->payload), m->len);
      r.timestamp = rd_kafka_message_timestamp(m, nullptr);
      out.push_back(std::move(r));
    } else if (error_out) {
      *error_out = rd_kafka_message_errstr(m);
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(c);
  rd_kafka_destroy(c);
  return out;
}

}  // namespace eddy::testing
