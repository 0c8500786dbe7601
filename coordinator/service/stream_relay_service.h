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
  // Why the job has ended ("FINISHED", "FAILED: <error>", ...), or "" while it has not.
  using JobEnded = std::function<std::string(const std::string& job_id)>;
  StreamRelayService(SessionLookup sessions, JobEnded job_ended)
      : sessions_(std::move(sessions)), job_ended_(std::move(job_ended)) {}

  grpc::Status OpenStream(grpc::ServerContext*, const v1::OpenStreamRequest* req,
                          v1::OpenStreamResponse* resp) override;
  grpc::Status WriteStream(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<v1::StreamWriteCredit, v1::StreamWriteFrame>* stream) override;
  grpc::Status PullStream(grpc::ServerContext*, const v1::PullStreamRequest* req,
                          v1::PullStreamResponse* resp) override;

 private:
  absl::StatusOr<std::shared_ptr<StreamRelay>> Find(const std::string& id);
  // "" while the stream's reading job runs (or none reads it yet); else why it takes no more rows.
  std::string ReaderEnded(const StreamRelay& relay);
  // Forgets the streams no batch comes to any more and whose reading job ended (their kept
  // batches with them).
  void DropEndedStreams();

  SessionLookup sessions_;
  JobEnded job_ended_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<StreamRelay>> relays_;
  int64_t next_id_ = 1;
};

// The CREATE TEMPORARY TABLE statement OpenStream declares the stream's table with. Exposed for
// tests.
std::string ClientStreamTableDdl(const v1::OpenStreamRequest& req, const std::string& table_name,
                                 const std::string& stream_id);

}  // namespace eddy
