// Kafka for integration tests: an eddy-kafka-mock process (a whole cluster, living apart from the
// workers so that they can be killed around it), and a test-side client that writes records into
// its topics and reads topics back (optionally with isolation.level=read_committed), independently
// of Eddy's connectors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/util/subprocess.h"

namespace eddy::testing {

struct KafkaRecord {
  int32_t partition = -1;  // -1: by key (writing)
  std::optional<std::string> key;
  std::optional<std::string> value;  // nullopt: a tombstone
  int64_t timestamp = 0;             // 0: now (writing)
  int64_t offset = -1;               // reading
};

class KafkaMockProcess {
 public:
  // Starts build/bin/eddy-kafka-mock with `brokers` and topics ("name:partitions") and waits for
  // its bootstrap line; check ok().
  KafkaMockProcess(const std::string& dir, int brokers, const std::vector<std::string>& topics);
  ~KafkaMockProcess();
  bool ok() const { return !bootstrap_.empty(); }
  const std::string& bootstrap() const { return bootstrap_; }
  const std::string& error() const { return error_; }
  // Creates a topic while the cluster runs (the mock's create-topic command); "" or the error.
  std::string CreateTopic(const std::string& name, int partitions);

 private:
  std::string dir_;
  Subprocess process_;
  std::string bootstrap_;
  std::string error_;
};

// Writes `records` to `topic` and waits until all are acknowledged; "" or the error.
std::string ProduceRecords(const std::string& bootstrap, const std::string& topic,
                           const std::vector<KafkaRecord>& records);
// Every record of `topic` from the beginning up to the end it has now, partition by partition.
std::vector<KafkaRecord> ConsumeTopic(const std::string& bootstrap, const std::string& topic,
                                      bool read_committed, std::string* error = nullptr);

}  // namespace eddy::testing
