#include "client/eddy_client.h"

#include <chrono>

#include "common/base/host_port.h"
#include "common/base/status_macros.h"
#include "common/rpc/message_limits.h"
#include "common/rpc/status_convert.h"

namespace eddy {

bool IsFinalJobStatus(v1::JobStatus s) {
  return s == v1::JOB_STATUS_FINISHED || s == v1::JOB_STATUS_FAILED || s == v1::JOB_STATUS_CANCELED;
}

absl::Status EddyClient::RpcError(const grpc::Status& s) const {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
    return absl::UnavailableError("cannot reach the coordinator at " + address_ + ": " +
                                  s.error_message());
  }
  if (!s.error_message().empty()) return FromGrpcStatus(s);
  // gRPC's own answer for a service the server does not have.
  if (s.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
    return absl::FailedPreconditionError(
        "the server at " + address_ +
        " does not serve Eddy's client API: is it the coordinator's address (not a worker's)?");
  }
  return absl::UnknownError("the coordinator at " + address_ + " answered " +
                            absl::StatusCodeToString(FromGrpcStatus(s).code()) +
                            " without a message");
}

EddyClient::EddyClient(const std::string& address, std::string session_id)
    : address_(address), session_id_(std::move(session_id)) {
  // Several addresses (an active coordinator and standbys): the channel follows the one that
  // listens. One that does not resolve is left to gRPC, whose error then names it.
  absl::StatusOr<std::string> target = ChannelTarget(address);
  channel_ =
      grpc::CreateCustomChannel(target.ok() ? *target : address, grpc::InsecureChannelCredentials(),
                                CoordinatorChannelArguments());
  stub_ = v1::ClientService::NewStub(channel_);
}

absl::StatusOr<v1::ExecuteStatementResponse> EddyClient::Execute(const std::string& statement) {
  v1::ExecuteStatementRequest req;
  req.set_session_id(session_id_);
  req.set_statement(statement);
  v1::ExecuteStatementResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 120000);
  grpc::Status s = stub_->ExecuteStatement(&ctx, req, &resp);
  if (!s.ok()) return RpcError(s);
  return resp;
}

absl::StatusOr<std::string> EddyClient::Explain(const std::string& statement, bool changelog_mode) {
  ASSIGN_OR_RETURN(v1::ExecuteStatementResponse r,
                   Execute((changelog_mode ? "EXPLAIN CHANGELOG_MODE " : "EXPLAIN ") + statement));
  if (r.kind() != v1::ExecuteStatementResponse::EXPLAIN) {
    return absl::InternalError("the coordinator answered EXPLAIN without a plan");
  }
  return r.message();
}

absl::StatusOr<v1::FetchResultsResponse> EddyClient::FetchResults(const std::string& job_id,
                                                                  int wait_ms) {
  v1::FetchResultsRequest req;
  req.set_job_id(job_id);
  req.set_max_wait_ms(wait_ms);
  v1::FetchResultsResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx, wait_ms + 30000);
  grpc::Status s = stub_->FetchResults(&ctx, req, &resp);
  if (!s.ok()) return RpcError(s);
  return resp;
}

absl::StatusOr<v1::JobInfo> EddyClient::WaitJob(const std::string& job_id, int64_t timeout_ms) {
  v1::GetJobRequest req;
  req.set_job_id(job_id);
  req.set_wait_timeout_ms(timeout_ms);
  v1::JobInfo info;
  grpc::ClientContext ctx;
  SetDeadline(&ctx, static_cast<int>(timeout_ms) + kRpcTimeoutMs);
  grpc::Status s = stub_->GetJob(&ctx, req, &info);
  if (!s.ok()) return RpcError(s);
  return info;
}

absl::StatusOr<v1::JobInfo> EddyClient::GetJob(const std::string& job_id) {
  return WaitJob(job_id, 0);
}

absl::Status EddyClient::CancelJob(const std::string& job_id) {
  v1::CancelJobClientRequest req;
  req.set_job_id(job_id);
  v1::CancelJobClientResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = stub_->CancelJob(&ctx, req, &resp);
  return s.ok() ? absl::OkStatus() : RpcError(s);
}

absl::StatusOr<std::string> EddyClient::StopWithSavepoint(const std::string& job_id,
                                                          const std::string& savepoint_dir,
                                                          bool drain) {
  v1::CancelJobClientRequest req;
  req.set_job_id(job_id);
  req.set_with_savepoint(true);
  req.set_drain(drain);
  req.set_savepoint_dir(savepoint_dir);
  v1::CancelJobClientResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 660000);  // the default checkpoint timeout (10 min) and then some
  grpc::Status s = stub_->CancelJob(&ctx, req, &resp);
  if (!s.ok()) return RpcError(s);
  return resp.savepoint_path();
}

absl::StatusOr<std::vector<v1::JobInfo>> EddyClient::ListJobs() {
  v1::ListJobsRequest req;
  v1::ListJobsResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = stub_->ListJobs(&ctx, req, &resp);
  if (!s.ok()) return RpcError(s);
  return std::vector<v1::JobInfo>(resp.jobs().begin(), resp.jobs().end());
}

absl::StatusOr<std::vector<v1::WorkerStatus>> EddyClient::ListWorkers() {
  v1::ListWorkersRequest req;
  v1::ListWorkersResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = stub_->ListWorkers(&ctx, req, &resp);
  if (!s.ok()) return RpcError(s);
  return std::vector<v1::WorkerStatus>(resp.workers().begin(), resp.workers().end());
}

}  // namespace eddy
