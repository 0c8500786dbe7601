// Counts and times every call a gRPC server of this process handles, per method and status code
// (one interceptor per server, added by AddRpcServerMetrics), for the process's /metrics. A
// call's time runs from its arrival to its status, so a long poll (FetchResults) counts its wait.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "common/http/prometheus_writer.h"

namespace eddy {

class RpcServerMetrics {
 public:
  struct Totals {
    uint64_t calls = 0;
    double seconds = 0;
  };
  // Of the whole process: every server with the interceptor records here.
  static RpcServerMetrics& Global();

  void Record(const std::string& method, const std::string& code, double seconds);
  // (method, status code name) -> totals so far.
  std::map<std::pair<std::string, std::string>, Totals> Snapshot() const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Totals> totals_;
};

// Makes the server built by `builder` record its calls in RpcServerMetrics::Global().
void AddRpcServerMetrics(grpc::ServerBuilder* builder);
// The totals of RpcServerMetrics::Global() as eddy_rpc_server_handled_total and
// eddy_rpc_server_handling_seconds_total (docs/metrics.md).
void WriteRpcServerMetrics(PrometheusWriter* out);

}  // namespace eddy
