#include "common/rpc/rpc_server_metrics.h"

#include <grpcpp/support/server_interceptor.h>

#include <chrono>
#include <memory>
#include <vector>

#include "absl/status/status.h"

namespace eddy {
namespace {

namespace gx = grpc::experimental;

class TimingInterceptor final : public gx::Interceptor {
 public:
  explicit TimingInterceptor(gx::ServerRpcInfo* info)
      : method_(info->method()), start_(std::chrono::steady_clock::now()) {}

  void Intercept(gx::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(gx::InterceptionHookPoints::PRE_SEND_STATUS)) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
      const auto code = static_cast<absl::StatusCode>(methods->GetSendStatus().error_code());
      RpcServerMetrics::Global().Record(method_, absl::StatusCodeToString(code), took.count());
    }
    methods->Proceed();
  }

 private:
  const std::string method_;
  const std::chrono::steady_clock::time_point start_;
};

class TimingInterceptorFactory final : public gx::ServerInterceptorFactoryInterface {
 public:
  gx::Interceptor* CreateServerInterceptor(gx::ServerRpcInfo* info) override {
    return new TimingInterceptor(info);
  }
};

}  // namespace

RpcServerMetrics& RpcServerMetrics::Global() {
  static RpcServerMetrics* metrics = new RpcServerMetrics();
  return *metrics;
}

void RpcServerMetrics::Record(const std::string& method, const std::string& code, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  Totals& t = totals_[{method, code}];
  ++t.calls;
  t.seconds += seconds;
}

std::map<std::pair<std::string, std::string>, RpcServerMetrics::Totals> RpcServerMetrics::Snapshot()
    const {
  std::lock_guard<std::mutex> lock(mu_);
  return totals_;
}

void AddRpcServerMetrics(grpc::ServerBuilder* builder) {
  std::vector<std::unique_ptr<gx::ServerInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<TimingInterceptorFactory>());
  builder->experimental().SetInterceptorCreators(std::move(factories));
}

void WriteRpcServerMetrics(PrometheusWriter* out) {
  out->Family("eddy_rpc_server_handled_total", PrometheusWriter::Type::kCounter,
              "gRPC calls this process handled, by method and status code.");
  out->Family("eddy_rpc_server_handling_seconds_total", PrometheusWriter::Type::kCounter,
              "Time from a call's arrival to its status, summed, by method and status code.");
  for (const auto& [key, totals] : RpcServerMetrics::Global().Snapshot()) {
    const MetricLabels labels = {{"method", key.first}, {"code", key.second}};
    out->Sample("eddy_rpc_server_handled_total", labels, totals.calls);
    out->Sample("eddy_rpc_server_handling_seconds_total", labels, totals.seconds);
  }
}

}  // namespace eddy
