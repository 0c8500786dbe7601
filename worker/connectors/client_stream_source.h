// The client-stream connector's source: reads the rows a program writes through
// TableEnvironment::FromStream, pulling them batch by batch from the coordinator's stream relay
// (proto/eddy/v1/stream_relay.proto). Its position is the number of batches it emitted; it confirms
// the batches a completed checkpoint covers (all it emitted, without checkpointing), so the relay
// keeps what a restore from the latest checkpoint reads again, and frees the rest.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/types/data_type.h"
#include "eddy/v1/stream_relay.grpc.pb.h"
#include "worker/operators/source.h"

namespace eddy {

class ClientStreamSource : public Source {
 public:
  // `schema`: the table's columns, as the program writes them; `columns`: those to read, in order.
  ClientStreamSource(std::string stream_id, std::string table, Schema schema,
                     std::vector<int> columns, std::shared_ptr<grpc::Channel> coordinator);
  absl::Status Open(const OperatorContext& ctx) override;
  absl::StatusOr<SourceState> Next(ChangelogBatch* out) override;
  std::chrono::microseconds idle_wait() const override { return std::chrono::milliseconds(5); }
  // Position: batches emitted ("batches").
  absl::Status SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) override;
  absl::Status RestoreState(const OperatorSnapshot& snapshot) override;
  absl::Status NotifyCheckpointComplete(int64_t checkpoint_id) override;

 private:
  absl::Status Pull();

  const std::string stream_id_;
  const std::string table_;
  const Schema schema_;
  const std::vector<int> columns_;
  std::unique_ptr<v1::StreamRelayService::Stub> stub_;
  std::string job_id_;
  bool checkpointing_ = false;
  int64_t emitted_ = 0;                    // batches emitted (the position)
  int64_t confirmed_ = 0;                  // batches a completed checkpoint covers
  std::map<int64_t, int64_t> snapshots_;   // checkpoint id -> its position
  std::deque<v1::ChangelogBatch> pulled_;  // pulled, not yet emitted
  bool end_ = false;                       // the relay said no batch follows pulled_
};

}  // namespace eddy
