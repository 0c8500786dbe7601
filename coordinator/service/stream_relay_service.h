// StreamRelayService on the coordinator (proto/eddy/v1/stream_relay.proto): opens a client stream
// as a temporary table of the client's session (connector client-stream), takes the program's
// batches against credits, and hands them to the source subtask that reads the table.
#pragma once

#include <grpcpp/grpcpp.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "coordinator/service/session.h"
#include "coordinator/service/stream_relay.h"
#include "eddy/v1/stream_relay.grpc.pb.h"

namespace eddy {

// A stream's buffer when OpenStream names none, in batches (each up to a client batch of rows).
inline constexpr int kDefaultStreamBufferBatches = 64;

class StreamRelayService final : public v1::StreamRelayService::Service {
 public:
  using SessionLookup = std::function<Session&(const std::string& session_id)>;
  explicit StreamRelayService(SessionLookup sessions) : sessions_(std::move(sessions)) {}

  grpc::Status OpenStream(grpc::ServerContext*, const v1::OpenStreamRequest* req,
                          v1::OpenStreamResponse* resp) override;
  grpc::Status WriteStream(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<v1::StreamWriteCredit, v1::StreamWriteFrame>* stream) override;
  grpc::Status PullStream(grpc::ServerContext*, const v1::PullStreamRequest* req,
                          v1::PullStreamResponse* resp) override;

 private:
  absl::StatusOr<std::shared_ptr<StreamRelay>> Find(const std::string& id);

  SessionLookup sessions_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<StreamRelay>> relays_;
  int64_t next_id_ = 1;
};

// The CREATE TEMPORARY TABLE statement OpenStream declares the stream's table with. Exposed for
// tests.
std::string ClientStreamTableDdl(const v1::OpenStreamRequest& req, const std::string& table_name,
                                 const std::string& stream_id);

}  // namespace eddy
