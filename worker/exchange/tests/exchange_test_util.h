// Helpers for exchange tests: an in-process "worker" (registry + ExchangeService on a loopback port)
// and batches whose rows say which producer and sequence number they carry.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/batch/changelog_batch.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/exchange_service.h"

namespace eddy::testing {

struct TestWorker {
  explicit TestWorker(std::chrono::milliseconds gate_timeout = kDefaultGateWaitTimeout)
      : registry(gate_timeout), service(&registry) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
    address = absl::StrCat("127.0.0.1:", port);
  }
  ~TestWorker() {
    registry.Shutdown();
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    server->Wait();
  }

  ExchangeRegistry registry;
  ExchangeServiceImpl service;
  std::unique_ptr<grpc::Server> server;
  std::string address;
};

inline std::vector<DataType> TestTypes() { return {DataType::BigInt(), DataType::String()}; }

// Rows (seq, "p<producer>") for seq in [start, start + n).
inline ChangelogBatch SeqBatch(int producer, int64_t start, size_t n) {
  ChangelogBatch b(TestTypes());
  b.Reserve(n);
  const std::string tag = absl::StrCat("p", producer);
  for (size_t i = 0; i < n; ++i) {
    b.mutable_column(0).Append<int64_t>(start + static_cast<int64_t>(i));
    b.mutable_column(1).AppendString(tag);
    b.mutable_kinds().push_back(RowKind::kInsert);
  }
  return b;
}

}  // namespace eddy::testing
