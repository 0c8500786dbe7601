#include "worker/connectors/kafka/kafka_source.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/connectors/table_spec.h"
#include "worker/operators/accumulator_codec.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<KafkaSource>> KafkaSource::Create(const v1::TableSource& spec) {
  std::unique_ptr<KafkaSource> s(new KafkaSource());
  s->table_name_ = spec.table_name();
  ASSIGN_OR_RETURN(s->table_, ConnectorTableOf(spec));
  ConnectorConfig config = ConnectorConfigOf(spec);
  ASSIGN_OR_RETURN(s->options_,
                   ReadKafkaOptions(s->table_, config, spec.connector() == "upsert-kafka"));
  RETURN_IF_ERROR(CheckKafkaSource(s->options_, s->table_name_));
  s->columns_.assign(spec.columns().begin(), spec.columns().end());
  s->reader_ = std::make_unique<KafkaRecordReader>(s->table_, s->options_, s->columns_);
  return s;
}

KafkaSource::~KafkaSource() { (void)Close(); }

absl::Status KafkaSource::Error(const std::string& message) const {
  return absl::InvalidArgumentError(absl::StrCat("table '", table_name_, "': ", message));
}

std::string KafkaSource::PositionKey(const Split& s, const char* what) {
  return absl::StrCat(what, ":", s.partition, ":", s.topic);
}

absl::Status KafkaSource::Open(const OperatorContext& ctx) {
  job_id_ = ctx.job_id;
  subtask_ = ctx.subtask_index;
  std::map<std::string, std::string> overrides = {
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"enable.partition.eof", "true"},
  };
  if (!options_.properties.count("group.id")) {
    overrides["group.id"] = absl::StrCat("eddy-", job_id_);  // never committed to
  }
  ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                   MakeKafkaConf(table_name_, options_.properties, overrides));
  ASSIGN_OR_RETURN(consumer_, NewKafkaHandle(table_name_, RD_KAFKA_CONSUMER, conf));
  queue_ = rd_kafka_queue_get_consumer(consumer_.get());
  if (queue_ == nullptr) return Error("the Kafka consumer has no queue");
  if (ctx.wakeup) {
    wakeup_ = ctx.wakeup;
    rd_kafka_queue_cb_event_enable(
        queue_, [](rd_kafka_t*, void* self) { static_cast<KafkaSource*>(self)->wakeup_(); }, this);
  }

  parallelism_ = ctx.parallelism;
  ASSIGN_OR_RETURN(KafkaSubscription subscription,
                   KafkaSubscription::Make(table_name_, options_.topics, options_.topic_pattern));
  ASSIGN_OR_RETURN(std::vector<KafkaTopicPartition> all, subscription.List(consumer_.get()));
  for (const auto& [topic, partition] : all) {
    if (KafkaSplitOwner(topic, partition, parallelism_) != subtask_) continue;
    Split s;
    s.topic = topic;
    s.partition = partition;
    splits_.push_back(std::move(s));
  }
  remaining_ = static_cast<int>(splits_.size());
  if (options_.discovery_interval_ms > 0 && options_.bounded == KafkaBoundedMode::kUnbounded) {
    discovery_ = std::make_unique<KafkaPartitionDiscovery>(consumer_.get(), std::move(subscription),
                                                           options_.discovery_interval_ms, [this] {
                                                             if (wakeup_) wakeup_();
                                                           });
  }
  return absl::OkStatus();
}

absl::Status KafkaSource::RestoreState(const OperatorSnapshot& snapshot) {
  for (Split& s : splits_) {
    ASSIGN_OR_RETURN(std::optional<int64_t> next, snapshot.GetInt64(PositionKey(s, "next")));
    ASSIGN_OR_RETURN(std::optional<int64_t> stop, snapshot.GetInt64(PositionKey(s, "stop")));
    if (next) s.next = *next;
    if (stop) s.stop = *stop;
  }
  if (std::optional<std::string_view> state = snapshot.Get("upsert")) {
    RETURN_IF_ERROR(normalizer_.Decode(*state));
  }
  ASSIGN_OR_RETURN(std::optional<int64_t> started, snapshot.GetInt64("started"));
  restored_started_ = started.has_value();
  if (restored_started_ && options_.bounded != KafkaBoundedMode::kUnbounded) {
    // A bounded scan reads the partitions it started with (it does not discover).
    splits_.erase(
        std::remove_if(splits_.begin(), splits_.end(), [](const Split& s) { return s.next < 0; }),
        splits_.end());
    remaining_ = static_cast<int>(splits_.size());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::pair<int64_t, int64_t>> KafkaSource::Watermarks(const Split& s) {
  int64_t low = 0, high = 0;
  rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(
      consumer_.get(), s.topic.c_str(), s.partition, &low, &high, kKafkaRequestTimeoutMs);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError(
        table_name_, absl::StrCat("offsets of topic '", s.topic, "' partition ", s.partition), err);
  }
  return std::make_pair(low, high);
}

absl::StatusOr<int64_t> KafkaSource::Committed(const Split& s) {
  KafkaPartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), s.topic.c_str(), s.partition);
  rd_kafka_resp_err_t err = rd_kafka_committed(consumer_.get(), list.get(), kKafkaRequestTimeoutMs);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) err = list->elems[0].err;
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError(table_name_,
                      absl::StrCat("committed offset of group '", options_.properties["group.id"],
                                   "' for topic '", s.topic, "' partition ", s.partition),
                      err);
  }
  return list->elems[0].offset;  // < 0: none
}

absl::StatusOr<int64_t> KafkaSource::OffsetForTime(const Split& s, int64_t timestamp_ms) {
  KafkaPartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), s.topic.c_str(), s.partition)->offset =
      timestamp_ms;
  rd_kafka_resp_err_t err =
      rd_kafka_offsets_for_times(consumer_.get(), list.get(), kKafkaRequestTimeoutMs);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) err = list->elems[0].err;
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return KafkaError(table_name_,
                      absl::StrCat("offset for time ", timestamp_ms, " of topic '", s.topic,
                                   "' partition ", s.partition),
                      err);
  }
  if (list->elems[0].offset >= 0) return list->elems[0].offset;
  ASSIGN_OR_RETURN(auto marks, Watermarks(s));  // no record that late: the end
  return marks.second;
}

absl::StatusOr<int64_t> KafkaSource::StartOffset(const Split& s) {
  ASSIGN_OR_RETURN(auto marks, Watermarks(s));
  KafkaStartupMode mode = options_.startup;
  if (mode == KafkaStartupMode::kSpecificOffsets) {
    auto it = options_.startup_offsets.find(s.partition);
    if (it != options_.startup_offsets.end()) return it->second;
    mode = KafkaStartupMode::kGroupOffsets;  // as Flink: unlisted partitions start at the group's
  }
  switch (mode) {
    case KafkaStartupMode::kEarliest:
      return marks.first;
    case KafkaStartupMode::kLatest:
      return marks.second;
    case KafkaStartupMode::kTimestamp:
      return OffsetForTime(s, options_.startup_timestamp_ms);
    case KafkaStartupMode::kGroupOffsets:
    case KafkaStartupMode::kSpecificOffsets: {
      if (!options_.properties.count("group.id")) return marks.first;
      ASSIGN_OR_RETURN(int64_t committed, Committed(s));
      if (committed >= 0) return committed;
      // No committed offset: properties.auto.offset.reset decides, as in Kafka's consumer.
      auto reset = options_.properties.find("auto.offset.reset");
      const std::string how = reset == options_.properties.end() ? "latest" : reset->second;
      if (how == "earliest" || how == "smallest" || how == "beginning") return marks.first;
      if (how == "latest" || how == "largest" || how == "end") return marks.second;
      return Error(absl::StrCat("group '", options_.properties["group.id"],
                                "' has no committed offset for topic '", s.topic, "' partition ",
                                s.partition, " and 'properties.auto.offset.reset' is '", how, "'"));
    }
  }
  return marks.first;
}

absl::StatusOr<int64_t> KafkaSource::StopOffset(const Split& s) {
  ASSIGN_OR_RETURN(auto marks, Watermarks(s));
  switch (options_.bounded) {
    case KafkaBoundedMode::kUnbounded:
      return -1;
    case KafkaBoundedMode::kLatest:
      return marks.second;
    case KafkaBoundedMode::kTimestamp:
      return OffsetForTime(s, options_.bounded_timestamp_ms);
    case KafkaBoundedMode::kSpecificOffsets: {
      auto it = options_.bounded_offsets.find(s.partition);
      return it != options_.bounded_offsets.end() ? it->second : marks.second;
    }
    case KafkaBoundedMode::kGroupOffsets: {
      ASSIGN_OR_RETURN(int64_t committed, Committed(s));
      return committed >= 0 ? committed : marks.second;
    }
  }
  return marks.second;
}

void KafkaSource::Finish(int split) {
  Split& s = splits_[static_cast<size_t>(split)];
  if (s.finished) return;
  s.finished = true;
  --remaining_;
  KafkaPartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), s.topic.c_str(), s.partition);
  rd_kafka_pause_partitions(consumer_.get(), list.get());
}

absl::Status KafkaSource::Start() {
  started_ = true;
  KafkaPartitionList assignment(
      rd_kafka_topic_partition_list_new(static_cast<int>(splits_.size())));
  std::vector<int> to_finish;
  for (size_t i = 0; i < splits_.size(); ++i) {
    Split& s = splits_[i];
    if (s.next < 0 && restored_started_) {
      ASSIGN_OR_RETURN(auto marks, Watermarks(s));  // found after the job started: its earliest
      s.next = marks.first;
    }
    if (s.next < 0) {
      ASSIGN_OR_RETURN(s.next, StartOffset(s));
    }
    if (s.stop < 0 && options_.bounded != KafkaBoundedMode::kUnbounded) {
      ASSIGN_OR_RETURN(s.stop, StopOffset(s));
    }
    rd_kafka_topic_partition_list_add(assignment.get(), s.topic.c_str(), s.partition)->offset =
        s.next;
    if (s.stop >= 0 && s.next >= s.stop) to_finish.push_back(static_cast<int>(i));
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), assignment.get());
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    return KafkaError(table_name_, "assigning partitions", err);
  for (int i : to_finish) Finish(i);
  return absl::OkStatus();
}

absl::Status KafkaSource::AddDiscovered(const std::vector<KafkaTopicPartition>& listed) {
  const size_t before = splits_.size();
  for (const auto& [topic, partition] : listed) {
    if (KafkaSplitOwner(topic, partition, parallelism_) != subtask_) continue;
    const bool known = std::any_of(splits_.begin(), splits_.end(), [&](const Split& s) {
      return s.partition == partition && s.topic == topic;
    });
    if (known) continue;
    Split s;
    s.topic = topic;
    s.partition = partition;
    splits_.push_back(std::move(s));
    ++remaining_;
  }
  if (splits_.size() == before) return absl::OkStatus();
  KafkaPartitionList added(
      rd_kafka_topic_partition_list_new(static_cast<int>(splits_.size() - before)));
  for (size_t i = before; i < splits_.size(); ++i) {
    // The earliest offset, resolved by the consumer; the position is known from the first record
    // on (a checkpoint before then restores the partition from its earliest offset too).
    rd_kafka_topic_partition_list_add(added.get(), splits_[i].topic.c_str(), splits_[i].partition)
        ->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  if (rd_kafka_error_t* error = rd_kafka_incremental_assign(consumer_.get(), added.get())) {
    return KafkaError(table_name_, "assigning discovered partitions", error);
  }
  return absl::OkStatus();
}

int KafkaSource::SplitOf(const rd_kafka_message_t* m) {
  const auto key = std::make_pair(static_cast<const void*>(m->rkt), m->partition);
  auto it = split_of_.find(key);
  if (it != split_of_.end()) return it->second;
  const char* topic = rd_kafka_topic_name(m->rkt);
  int found = -1;
  for (size_t i = 0; i < splits_.size(); ++i) {
    if (splits_[i].partition == m->partition && splits_[i].topic == topic) {
      found = static_cast<int>(i);
    }
  }
  if (found >= 0) split_of_.emplace(key, found);
  return found;
}

absl::Status KafkaSource::Append(const rd_kafka_message_t* m, int split) {
  const Split& s = splits_[static_cast<size_t>(split)];
  const std::string_view value(static_cast<const char*>(m->payload), m->len);
  if (!options_.upsert) {
    if (m->payload == nullptr) return absl::OkStatus();  // a tombstone means nothing here
    return reader_->Append(*m, s.topic, value, false, RowKind::kInsert).status();
  }
  if (m->key == nullptr) {
    return Error(absl::StrCat("topic '", s.topic, "' partition ", s.partition, " offset ",
                              m->offset, ": an upsert-kafka record needs a key"));
  }
  const std::string_view key(static_cast<const char*>(m->key), m->key_len);
  // With metadata columns the normaliser keeps each key's record metadata with its value, so that
  // a -U or -D repeats the metadata of the row it retracts; a record then changes its key's row
  // when its value or that metadata differs (the row holds both).
  std::string_view kept = value;
  if (reader_->reads_metadata() && m->payload != nullptr) {
    record_.clear();
    agg_codec::PutString(value, &record_);
    reader_->SaveMetadata(*m, s.topic, &record_);
    kept = record_;
  }
  const UpsertNormalizer::Change change =
      normalizer_.Apply(key, kept, m->payload == nullptr, &previous_);
  std::string_view previous_value = previous_;
  std::optional<std::string_view> previous_metadata;
  if (reader_->reads_metadata() && (change == UpsertNormalizer::Change::kUpdate ||
                                    change == UpsertNormalizer::Change::kDelete)) {
    agg_codec::Reader in(previous_);
    previous_value = in.String();
    if (!in.ok()) return Error("the saved row of an upsert-kafka key is truncated");
    previous_metadata = std::string_view(previous_).substr(
        static_cast<size_t>(previous_value.data() + previous_value.size() - previous_.data()));
  }
  switch (change) {
    case UpsertNormalizer::Change::kNone:
      return absl::OkStatus();
    case UpsertNormalizer::Change::kInsert:
      return reader_->Append(*m, s.topic, value, false, RowKind::kInsert).status();
    case UpsertNormalizer::Change::kUpdate:
      RETURN_IF_ERROR(reader_
                          ->Append(*m, s.topic, previous_value, false, RowKind::kUpdateBefore,
                                   previous_metadata)
                          .status());
      return reader_->Append(*m, s.topic, value, false, RowKind::kUpdateAfter).status();
    case UpsertNormalizer::Change::kDelete:
      return reader_
          ->Append(*m, s.topic, previous_value, false, RowKind::kDelete, previous_metadata)
          .status();
  }
  return absl::OkStatus();
}

void KafkaSource::ReleaseMessages() {
  for (size_t i = message_pos_; i < message_count_; ++i) rd_kafka_message_destroy(messages_[i]);
  message_pos_ = message_count_ = 0;
}

absl::StatusOr<SourceState> KafkaSource::Next(ChangelogBatch* out) {
  if (!started_) RETURN_IF_ERROR(Start());
  if (discovery_ != nullptr) {
    if (auto listed = discovery_->Take()) {
      if (!listed->ok()) return listed->status();
      RETURN_IF_ERROR(AddDiscovered(**listed));
    }
  }
  if (message_pos_ == message_count_) {
    message_pos_ = 0;
    const ssize_t n = rd_kafka_consume_batch_queue(queue_, 0, messages_, kMaxMessages);
    if (n < 0) return KafkaError(table_name_, "consuming", rd_kafka_last_error());
    message_count_ = static_cast<size_t>(n);
  }
  int batch_split = -1;
  for (;;) {
    while (message_pos_ < message_count_ && reader_->num_rows() < kDefaultBatchRows) {
      rd_kafka_message_t* m = messages_[message_pos_];
      if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        absl::Status s =
            KafkaError(table_name_,
                       absl::StrCat("reading topic '", m->rkt ? rd_kafka_topic_name(m->rkt) : "?",
                                    "' partition ", m->partition),
                       m->err);
        return s;
      }
      const int split = m->rkt ? SplitOf(m) : -1;
      if (split >= 0 && batch_split >= 0 && split != batch_split) break;  // one partition a batch
      ++message_pos_;
      if (split >= 0 && !splits_[static_cast<size_t>(split)].finished) {
        Split& s = splits_[static_cast<size_t>(split)];
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          // The end of what is there (past transaction markers too).
          if (s.stop >= 0 && m->offset >= s.stop) Finish(split);
        } else if (s.stop < 0 || m->offset < s.stop) {
          batch_split = split;
          absl::Status appended = Append(m, split);
          if (!appended.ok()) {
            rd_kafka_message_destroy(m);
            return appended;
          }
          s.next = m->offset + 1;
          if (s.stop >= 0 && s.next >= s.stop) Finish(split);
        } else {
          Finish(split);
        }
      }
      rd_kafka_message_destroy(m);
    }
    // Records that made no row (a repeated upsert value) end no batch: go on with the next ones.
    if (reader_->num_rows() > 0 || message_pos_ == message_count_) break;
    batch_split = -1;
  }
  if (reader_->num_rows() > 0) {
    batch_split_ = batch_split;
    ASSIGN_OR_RETURN(*out, reader_->TakeBatch());
    rows_out_ += out->num_rows();
    return SourceState::kData;
  }
  if (options_.bounded != KafkaBoundedMode::kUnbounded && remaining_ == 0 &&
      message_pos_ == message_count_) {
    return SourceState::kEnd;
  }
  return SourceState::kIdle;
}

absl::Status KafkaSource::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  std::vector<std::pair<int, int64_t>> positions;
  for (size_t i = 0; i < splits_.size(); ++i) {
    const Split& s = splits_[i];
    if (s.next >= 0) {
      out->PutInt64(PositionKey(s, "next"), s.next);
      positions.emplace_back(static_cast<int>(i), s.next);
    }
    if (s.stop >= 0) out->PutInt64(PositionKey(s, "stop"), s.stop);
  }
  if (started_) out->PutInt64("started", 1);
  if (options_.upsert) out->Put("upsert", normalizer_.Encode());
  if (options_.properties.count("group.id")) pending_commits_[checkpoint_id] = std::move(positions);
  return absl::OkStatus();
}

absl::Status KafkaSource::NotifyCheckpointComplete(int64_t checkpoint_id) {
  auto it = pending_commits_.find(checkpoint_id);
  if (it == pending_commits_.end() || consumer_ == nullptr) return absl::OkStatus();
  if (!it->second.empty()) {
    KafkaPartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(it->second.size())));
    for (const auto& [split, next] : it->second) {
      const Split& s = splits_[static_cast<size_t>(split)];
      rd_kafka_topic_partition_list_add(list.get(), s.topic.c_str(), s.partition)->offset = next;
    }
    // For monitoring only (a restore resumes from the checkpoint): a failure is not the job's.
    rd_kafka_commit(consumer_.get(), list.get(), /*async=*/1);
  }
  pending_commits_.erase(pending_commits_.begin(), std::next(it));
  return absl::OkStatus();
}

absl::Status KafkaSource::Close() {
  discovery_.reset();  // its thread uses the consumer
  ReleaseMessages();
  if (queue_ != nullptr) {
    if (wakeup_) rd_kafka_queue_cb_event_enable(queue_, nullptr, nullptr);
    rd_kafka_queue_destroy(queue_);
    queue_ = nullptr;
  }
  if (consumer_ != nullptr) {
    rd_kafka_consumer_close(consumer_.get());
    consumer_.reset();
  }
  return absl::OkStatus();
}

}  // namespace eddy
