#include "worker/connectors/kafka/kafka_sink.h"

#include <limits>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/connectors/table_spec.h"
#include "worker/connectors/kafka/kafka_headers.h"
#include "worker/operators/accumulator_codec.h"

namespace eddy {
namespace {

// The first failed delivery, reported by librdkafka's delivery callback on the task's thread.
struct DeliveryState {
  rd_kafka_resp_err_t first_error = RD_KAFKA_RESP_ERR_NO_ERROR;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  auto* state = static_cast<DeliveryState*>(opaque);
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && state->first_error == RD_KAFKA_RESP_ERR_NO_ERROR) {
    state->first_error = m->err;
  }
}

// Bytes or null: length + 1, 0 for null.
void PutBytes(const std::string_view* s, std::string* out) {
  if (s == nullptr) {
    agg_codec::PutVarint(0, out);
    return;
  }
  agg_codec::PutVarint(s->size() + 1, out);
  out->append(s->data(), s->size());
}

// What PutBytes wrote: nullopt for null.
std::optional<std::string_view> GetBytes(agg_codec::Reader& in) {
  const uint64_t n = in.Varint();
  if (n == 0) return std::nullopt;
  return in.Bytes(n - 1);
}

DeliveryState& StateOf(rd_kafka_t* rk) { return *static_cast<DeliveryState*>(rd_kafka_opaque(rk)); }

}  // namespace

absl::StatusOr<std::unique_ptr<KafkaSink>> KafkaSink::Create(const v1::TableSink& spec,
                                                             const Schema& input) {
  std::unique_ptr<KafkaSink> s(new KafkaSink());
  s->table_name_ = spec.table_name();
  s->table_ = ConnectorTableOf(spec, input);
  ConnectorConfig config = ConnectorConfigOf(spec);
  ASSIGN_OR_RETURN(s->options_,
                   ReadKafkaOptions(s->table_, config, spec.connector() == "upsert-kafka"));
  if (s->options_.topics.size() != 1) {
    return s->Error("a Kafka sink writes one topic: set 'topic' to one name");
  }
  s->topic_ = s->options_.topics[0];
  s->writer_ = std::make_unique<KafkaRecordWriter>(s->table_, s->options_);
  return s;
}

KafkaSink::~KafkaSink() { (void)Close(); }

absl::Status KafkaSink::Error(const std::string& message) const {
  return absl::InvalidArgumentError(absl::StrCat("table '", table_name_, "': ", message));
}

absl::Status KafkaSink::Open(const OperatorContext& ctx) {
  checkpointing_ = ctx.checkpointing;
  subtask_ = ctx.subtask_index;
  cancelled_ = ctx.cancelled;
  std::map<std::string, std::string> overrides;
  if (!options_.properties.count("partitioner")) {
    overrides["partitioner"] = "murmur2_random";  // the Java producer's partitioning of keys
  }
  const bool exactly_once = options_.delivery == KafkaDeliveryGuarantee::kExactlyOnce;
  if (exactly_once) {
    transactional_id_ = absl::StrCat(options_.transactional_id_prefix, "-", subtask_);
    overrides["transactional.id"] = transactional_id_;
  }
  ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                   MakeKafkaConf(table_name_, options_.properties, overrides));
  rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  rd_kafka_conf_set_opaque(conf, new DeliveryState());
  absl::StatusOr<KafkaHandle> producer = NewKafkaHandle(table_name_, RD_KAFKA_PRODUCER, conf);
  if (!producer.ok()) return producer.status();
  producer_ = std::move(*producer);
  rkt_ = rd_kafka_topic_new(producer_.get(), topic_.c_str(), nullptr);
  ASSIGN_OR_RETURN(std::vector<int32_t> partitions,
                   KafkaPartitions(producer_.get(), table_name_, topic_));
  num_partitions_ = static_cast<int32_t>(partitions.size());
  if (exactly_once) {
    // Fences an earlier attempt's producer and aborts the transaction it left open.
    if (rd_kafka_error_t* e = rd_kafka_init_transactions(producer_.get(), kKafkaRequestTimeoutMs)) {
      return KafkaError(table_name_,
                        absl::StrCat("starting transactional producer '", transactional_id_, "'"),
                        e);
    }
    ASSIGN_OR_RETURN(
        rd_kafka_conf_t * mconf,
        MakeKafkaConf(table_name_, options_.properties,
                      {{"group.id", absl::StrCat(transactional_id_, "-", ctx.job_id, "-commits")},
                       {"enable.auto.commit", "false"}}));
    ASSIGN_OR_RETURN(marker_consumer_, NewKafkaHandle(table_name_, RD_KAFKA_CONSUMER, mconf));
  }
  return absl::OkStatus();
}

int32_t KafkaSink::PartitionFor(bool has_key) {
  switch (options_.partitioner) {
    case KafkaPartitioner::kDefault:
      return RD_KAFKA_PARTITION_UA;
    case KafkaPartitioner::kFixed:
      return subtask_ % num_partitions_;
    case KafkaPartitioner::kRoundRobin:
      return static_cast<int32_t>(round_robin_++ % static_cast<uint64_t>(num_partitions_));
  }
  return RD_KAFKA_PARTITION_UA;
}

absl::Status KafkaSink::CheckDelivery() {
  const rd_kafka_resp_err_t err = StateOf(producer_.get()).first_error;
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return absl::OkStatus();
  return KafkaError(table_name_, absl::StrCat("writing to topic '", topic_, "'"), err);
}

absl::Status KafkaSink::Produce(int32_t partition, const std::string_view* key,
                                const std::string_view* value, int64_t timestamp,
                                const std::string_view* headers) {
  // (librdkafka's argument macros cast without parentheses: plain variables only.)
  void* key_bytes = key ? const_cast<char*>(key->data()) : nullptr;
  const size_t key_size = key ? key->size() : 0;
  void* value_bytes = value ? const_cast<char*>(value->data()) : nullptr;
  const size_t value_size = value ? value->size() : 0;
  for (;;) {
    // A new header list each try: a successful producev owns it.
    rd_kafka_headers_t* header_list = nullptr;
    if (headers != nullptr) {
      ASSIGN_OR_RETURN(header_list, KafkaHeadersFromMap(*headers, table_name_));
    }
    const rd_kafka_resp_err_t err =
        header_list == nullptr
            ? rd_kafka_producev(
                  producer_.get(), RD_KAFKA_V_RKT(rkt_), RD_KAFKA_V_PARTITION(partition),
                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key_bytes, key_size),
                  RD_KAFKA_V_VALUE(value_bytes, value_size), RD_KAFKA_V_TIMESTAMP(timestamp),
                  RD_KAFKA_V_END)
            : rd_kafka_producev(
                  producer_.get(), RD_KAFKA_V_RKT(rkt_), RD_KAFKA_V_PARTITION(partition),
                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key_bytes, key_size),
                  RD_KAFKA_V_VALUE(value_bytes, value_size), RD_KAFKA_V_TIMESTAMP(timestamp),
                  RD_KAFKA_V_HEADERS(header_list), RD_KAFKA_V_END);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && header_list != nullptr) {
      rd_kafka_headers_destroy(header_list);
    }
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return absl::OkStatus();
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return KafkaError(table_name_, absl::StrCat("writing to topic '", topic_, "'"), err);
    }
    if (cancelled_ != nullptr && cancelled_->load()) return absl::CancelledError("cancelled");
    rd_kafka_poll(producer_.get(), 10);  // the queue is full: wait for acknowledgements
    RETURN_IF_ERROR(CheckDelivery());
  }
}

absl::Status KafkaSink::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(writer_->Encode(batch));
  const bool exactly_once = options_.delivery == KafkaDeliveryGuarantee::kExactlyOnce;
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    const RowKind kind = batch.kind(r);
    bool tombstone = false;
    if (options_.upsert) {
      if (kind == RowKind::kUpdateBefore) continue;
      tombstone = kind == RowKind::kDelete;
    } else if (kind != RowKind::kInsert) {
      return Error("the kafka connector writes insert-only rows; use upsert-kafka for a changelog");
    }
    std::string_view key, value;
    const bool has_key = writer_->has_key() && !writer_->key_null(r);
    if (has_key) key = writer_->key(r);
    const bool has_value = !tombstone && !writer_->value_null(r);
    if (has_value) value = writer_->value(r);
    const int32_t partition = PartitionFor(has_key);
    const int64_t timestamp = writer_->timestamp(batch, r);
    const std::optional<std::string_view> headers = writer_->headers(batch, r);
    if (exactly_once) {
      agg_codec::PutVarint(static_cast<uint64_t>(partition + 1), &current_.bytes);
      agg_codec::PutVarint(static_cast<uint64_t>(timestamp), &current_.bytes);
      PutBytes(has_key ? &key : nullptr, &current_.bytes);
      PutBytes(has_value ? &value : nullptr, &current_.bytes);
      PutBytes(headers ? &*headers : nullptr, &current_.bytes);
      ++current_.records;
    } else {
      RETURN_IF_ERROR(Produce(partition, has_key ? &key : nullptr, has_value ? &value : nullptr,
                              timestamp, headers ? &*headers : nullptr));
    }
  }
  if (!exactly_once) {
    rd_kafka_poll(producer_.get(), 0);
    RETURN_IF_ERROR(CheckDelivery());
  }
  return absl::OkStatus();
}

absl::Status KafkaSink::OnTick(std::chrono::steady_clock::time_point) {
  if (producer_ != nullptr) rd_kafka_poll(producer_.get(), 0);
  return producer_ != nullptr ? CheckDelivery() : absl::OkStatus();
}

absl::Status KafkaSink::Flush() {
  while (rd_kafka_outq_len(producer_.get()) > 0) {
    if (cancelled_ != nullptr && cancelled_->load()) return absl::CancelledError("cancelled");
    rd_kafka_flush(producer_.get(), 100);
    RETURN_IF_ERROR(CheckDelivery());
  }
  return CheckDelivery();
}

absl::Status KafkaSink::Finish() {
  if (options_.delivery != KafkaDeliveryGuarantee::kExactlyOnce) return Flush();
  if (!checkpointing_ && current_.records > 0) {
    // No checkpoints: the end of the input commits everything.
    pending_[0] = std::move(current_);
    current_ = Interval();
    return CommitIntervals(0);
  }
  return absl::OkStatus();
}

bool KafkaSink::HasUncommittedOutput() const { return current_.records > 0 || !pending_.empty(); }

absl::Status KafkaSink::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  if (options_.delivery == KafkaDeliveryGuarantee::kAtLeastOnce) return Flush();
  if (options_.delivery != KafkaDeliveryGuarantee::kExactlyOnce) return absl::OkStatus();
  if (current_.records > 0) {
    pending_[checkpoint_id] = std::move(current_);
    current_ = Interval();
  }
  for (const auto& [id, interval] : pending_) {
    out->Put(absl::StrCat("interval:", id), interval.bytes);
  }
  return absl::OkStatus();
}

absl::Status KafkaSink::RestoreState(const OperatorSnapshot& snapshot) {
  if (options_.delivery != KafkaDeliveryGuarantee::kExactlyOnce) return absl::OkStatus();
  pending_.clear();
  int64_t last = -1;
  for (const auto& [name, bytes] : snapshot.entries()) {
    int64_t id = 0;
    if (name.rfind("interval:", 0) != 0 || !absl::SimpleAtoi(name.substr(9), &id)) continue;
    Interval interval;
    interval.bytes = bytes;
    interval.records = 1;  // not empty
    pending_[id] = std::move(interval);
    last = std::max(last, id);
  }
  if (pending_.empty()) return absl::OkStatus();
  // The restored checkpoint completed: its intervals belong in the topic. Those the marker shows
  // committed are there already.
  ASSIGN_OR_RETURN(int64_t committed, CommittedMarker());
  pending_.erase(pending_.begin(), pending_.upper_bound(committed));
  if (pending_.empty()) return absl::OkStatus();
  return CommitIntervals(last);
}

absl::StatusOr<int64_t> KafkaSink::CommittedMarker() {
  KafkaPartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic_.c_str(), 0);
  rd_kafka_resp_err_t err =
      rd_kafka_committed(marker_consumer_.get(), list.get(), kKafkaRequestTimeoutMs);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) err = list->elems[0].err;
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError(table_name_, "reading the sink's commit marker", err);
  }
  return list->elems[0].offset;  // < 0: nothing committed yet
}

absl::Status KafkaSink::CommitIntervals(int64_t checkpoint_id) {
  auto end = pending_.upper_bound(checkpoint_id);
  if (pending_.begin() == end) return absl::OkStatus();
  rd_kafka_t* rk = producer_.get();
  auto Fail = [&](const char* what, rd_kafka_error_t* e) {
    if (rd_kafka_error_txn_requires_abort(e)) {
      if (rd_kafka_error_t* a = rd_kafka_abort_transaction(rk, kKafkaRequestTimeoutMs)) {
        rd_kafka_error_destroy(a);
      }
    }
    return KafkaError(table_name_,
                      absl::StrCat(what, " (transaction of '", transactional_id_, "')"), e);
  };
  if (rd_kafka_error_t* e = rd_kafka_begin_transaction(rk)) return Fail("beginning", e);
  for (auto it = pending_.begin(); it != end; ++it) {
    agg_codec::Reader in(it->second.bytes);
    while (!in.done()) {
      const uint64_t partition = in.Varint();
      const uint64_t timestamp = in.Varint();
      const std::optional<std::string_view> key = GetBytes(in);
      const std::optional<std::string_view> value = GetBytes(in);
      const std::optional<std::string_view> headers = GetBytes(in);
      if (!in.ok()) {
        return absl::DataLossError(
            absl::StrCat("table '", table_name_, "': a saved Kafka record is truncated"));
      }
      RETURN_IF_ERROR(Produce(static_cast<int32_t>(partition) - 1, key ? &*key : nullptr,
                              value ? &*value : nullptr, static_cast<int64_t>(timestamp),
                              headers ? &*headers : nullptr));
    }
  }
  KafkaPartitionList marker(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(marker.get(), topic_.c_str(), 0)->offset = checkpoint_id;
  rd_kafka_consumer_group_metadata_t* group =
      rd_kafka_consumer_group_metadata(marker_consumer_.get());
  rd_kafka_error_t* e =
      rd_kafka_send_offsets_to_transaction(rk, marker.get(), group, kKafkaRequestTimeoutMs);
  rd_kafka_consumer_group_metadata_destroy(group);
  if (e != nullptr) return Fail("adding the commit marker", e);
  if (rd_kafka_error_t* c = rd_kafka_commit_transaction(rk, -1)) return Fail("committing", c);
  RETURN_IF_ERROR(CheckDelivery());
  // The marker again outside the transaction, for clusters that keep no transactional offsets
  // (eddy-kafka-mock); on a broker it holds the same value already.
  rd_kafka_commit(marker_consumer_.get(), marker.get(), /*async=*/0);
  pending_.erase(pending_.begin(), end);
  return absl::OkStatus();
}

absl::Status KafkaSink::NotifyCheckpointComplete(int64_t checkpoint_id) {
  if (options_.delivery != KafkaDeliveryGuarantee::kExactlyOnce) return absl::OkStatus();
  return CommitIntervals(checkpoint_id);
}

absl::Status KafkaSink::Close() {
  if (rkt_ != nullptr) {
    rd_kafka_topic_destroy(rkt_);
    rkt_ = nullptr;
  }
  if (producer_ != nullptr) {
    DeliveryState* state = &StateOf(producer_.get());
    producer_.reset();
    delete state;
  }
  marker_consumer_.reset();
  return absl::OkStatus();
}

}  // namespace eddy
