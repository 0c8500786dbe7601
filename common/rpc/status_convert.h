// absl::Status <-> grpc::Status, keeping the code and the message, so user errors raised deep in
// the coordinator reach the client unchanged.
#pragma once

#include <grpcpp/grpcpp.h>

#include "absl/status/status.h"

namespace eddy {

grpc::Status ToGrpcStatus(const absl::Status& s);
absl::Status FromGrpcStatus(const grpc::Status& s);

// Default deadline for control-plane calls.
inline constexpr int kRpcTimeoutMs = 10000;
void SetDeadline(grpc::ClientContext* ctx, int timeout_ms = kRpcTimeoutMs);

}  // namespace eddy
