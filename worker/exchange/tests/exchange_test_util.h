// Helpers for exchange tests: an in-process "worker" (registry + ExchangeService on a loopback
// port) batches whose rows say which producer and sequence number they carry, and a readable trace
// of the events each channel of a gate delivers.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/batch/changelog_batch.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/exchange/exchange_service.h"
#include "worker/exchange/input_gate.h"

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

// "b<first value>", "w<millis>", "|<checkpoint id>" or "end".
inline std::string DescribeEvent(const ChannelEvent& e) {
  switch (e.kind) {
    case ChannelEvent::Kind::kBatch:
      return absl::StrCat("b", e.batch.column(0).Get<int64_t>(0));
    case ChannelEvent::Kind::kWatermark:
      return absl::StrCat("w", e.watermark.millis);
    case ChannelEvent::Kind::kBarrier:
      return absl::StrCat("|", e.checkpoint_id);
    case ChannelEvent::Kind::kEndOfInput:
      return e.stopped ? "end at stop" : "end";
  }
  return "?";
}

// Polls `gate` with PollEvent until every channel ended (or an error, or `timeout`); returns each
// channel's events as DescribeEvent names them, in delivery order.
inline std::vector<std::vector<std::string>> DrainEvents(
    InputGate& gate, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  std::vector<std::vector<std::string>> out(gate.num_channels());
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  ChannelEvent e;
  int channel = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    auto st = gate.PollEvent(&e, &channel);
    if (!st.ok() || *st == SourceState::kEnd) break;
    if (*st == SourceState::kIdle) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      continue;
    }
    out[channel].push_back(DescribeEvent(e));
  }
  return out;
}

}  // namespace eddy::testing
