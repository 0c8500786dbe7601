#include "worker/connectors/kafka/kafka_runtimes.h"

#include "common/base/status_macros.h"
#include "worker/connectors/kafka/kafka_sink.h"
#include "worker/connectors/kafka/kafka_source.h"

namespace eddy {
namespace {

class Kafka : public ConnectorRuntime {
 public:
  explicit Kafka(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  absl::StatusOr<std::unique_ptr<Source>> CreateSource(const v1::TableSource& spec,
                                                       const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(auto source, KafkaSource::Create(spec));
    return source;
  }
  absl::StatusOr<std::unique_ptr<Operator>> CreateSink(const v1::TableSink& spec,
                                                       const Schema& input,
                                                       const ConnectorContext& ctx) const override {
    ASSIGN_OR_RETURN(auto sink, KafkaSink::Create(spec, input));
    return sink;
  }

 private:
  std::string_view name_;
};

}  // namespace

const ConnectorRuntime& KafkaRuntime() {
  static const Kafka kRuntime("kafka");
  return kRuntime;
}

const ConnectorRuntime& UpsertKafkaRuntime() {
  static const Kafka kRuntime("upsert-kafka");
  return kRuntime;
}

}  // namespace eddy
