// The C++ client of a coordinator: runs statements in a session and follows jobs, over gRPC.
// Errors come back as the coordinator phrased them (stage and place included).
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "eddy/v1/client.grpc.pb.h"

namespace eddy {

class EddyClient {
 public:
  // `address` is host:port of the coordinator; `session_id` names the session (any string).
  EddyClient(const std::string& address, std::string session_id);

  absl::StatusOr<v1::ExecuteStatementResponse> Execute(const std::string& statement);
  // The plan text of `EXPLAIN [CHANGELOG_MODE] <statement>` (a query, an INSERT or a statement
  // set); runs nothing.
  absl::StatusOr<std::string> Explain(const std::string& statement, bool changelog_mode = false);
  // Waits up to `timeout_ms` for the job to reach a final status and returns its info either way.
  absl::StatusOr<v1::JobInfo> WaitJob(const std::string& job_id, int64_t timeout_ms);
  absl::StatusOr<v1::JobInfo> GetJob(const std::string& job_id);
  // The next rows of a SELECT job (ExecuteStatementResponse::QUERY), waiting up to `wait_ms` for
  // some; `end` once all were handed over; an error when the job failed or was cancelled.
  absl::StatusOr<v1::FetchResultsResponse> FetchResults(const std::string& job_id, int wait_ms);
  absl::Status CancelJob(const std::string& job_id);
  // STOP JOB ... WITH SAVEPOINT [WITH DRAIN]: returns the savepoint's directory once the job
  // stopped (FINISHED). `savepoint_dir` empty: the job's state.savepoints.dir.
  absl::StatusOr<std::string> StopWithSavepoint(const std::string& job_id,
                                                const std::string& savepoint_dir = "",
                                                bool drain = false);
  absl::StatusOr<std::vector<v1::JobInfo>> ListJobs();
  // Workers with their slots, running subtasks and heartbeat age.
  absl::StatusOr<std::vector<v1::WorkerStatus>> ListWorkers();

  const std::string& address() const { return address_; }
  const std::string& session_id() const { return session_id_; }
  // The channel to the coordinator, for the other services it serves (stream_writer.h).
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }
  // A failed call as the user should read it (see RpcError).
  absl::Status CallError(const grpc::Status& s) const { return RpcError(s); }

 private:
  // A failed call as the user should read it: the coordinator's own message, or what the failure
  // means when there is none (no server there, or not a coordinator).
  absl::Status RpcError(const grpc::Status& s) const;

  std::string address_;
  std::string session_id_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::ClientService::Stub> stub_;
};

bool IsFinalJobStatus(v1::JobStatus s);

}  // namespace eddy
