// The size limits of every gRPC channel and server, set deliberately rather than left at gRPC's
// defaults (4 MiB to receive). Large data never relies on a large limit: result batches are split
// into chunks and FetchResults responses are capped far below it (docs/architecture.md, "Message
// sizes").
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstddef>

namespace eddy {

// Send and receive limit of every channel (client -> coordinator, coordinator -> worker, worker ->
// coordinator, worker -> worker exchange) and server. A message over it fails that call with
// RESOURCE_EXHAUSTED naming both sizes.
inline constexpr int kMaxRpcMessageBytes = 64 << 20;
// A SELECT's collect sink splits a batch whose rows take more than this into several.
inline constexpr size_t kResultChunkBytes = 1 << 20;
// A FetchResults response stops taking batches once it holds this much (at least one batch).
inline constexpr size_t kFetchResultsResponseBytes = 8 << 20;

inline grpc::ChannelArguments LimitedChannelArguments() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxRpcMessageBytes);
  args.SetMaxSendMessageSize(kMaxRpcMessageBytes);
  return args;
}

// A channel to the coordinator (from a client or a worker): with several addresses (an active
// coordinator and standbys, host_port.h's ChannelTarget) it reconnects within 2 s of a standby
// taking over rather than after gRPC's backoff of up to two minutes.
inline grpc::ChannelArguments CoordinatorChannelArguments() {
  grpc::ChannelArguments args = LimitedChannelArguments();
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  return args;
}

// Also turns SO_REUSEPORT off, which gRPC enables by default: with it a second server could bind
// a port that is in use and share its connections with the first.
inline void ConfigureServerBuilder(grpc::ServerBuilder* builder) {
  builder->SetMaxReceiveMessageSize(kMaxRpcMessageBytes);
  builder->SetMaxSendMessageSize(kMaxRpcMessageBytes);
  builder->AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
}

}  // namespace eddy
