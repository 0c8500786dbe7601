#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "common/batch/batch_codec.h"
#include "tests/util/eventually.h"
#include "worker/exchange/remote_output_channel.h"
#include "worker/exchange/tests/exchange_test_util.h"

namespace eddy {
namespace {

using testing::SeqBatch;
using testing::TestTypes;
using testing::TestWorker;

ChannelTarget Target(const std::string& address, int subtask, int channel, int num_channels) {
  ChannelTarget t;
  t.address = address;
  t.consumer = GateKey{"j", 1, subtask};
  t.channel_index = channel;
  t.num_channels = num_channels;
  t.producer = "job j task 0 subtask " + std::to_string(channel);
  return t;
}

// Polls `gate` until end-of-input; checks per-channel order and returns the rows received.
int64_t DrainInOrder(InputGate& gate, int num_channels) {
  std::vector<int64_t> next(num_channels, 0);
  int64_t rows = 0;
  ChangelogBatch b;
  int channel;
  while (true) {
    auto st = gate.Poll(&b, &channel);
    EXPECT_TRUE(st.ok()) << st.status();
    if (!st.ok() || *st == SourceState::kEnd) break;
    if (*st == SourceState::kIdle) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    for (size_t r = 0; r < b.num_rows(); ++r) {
      if (b.column(0).Get<int64_t>(r) != next[channel]) {
        ADD_FAILURE() << "channel " << channel << " row " << next[channel] << " out of order";
        return rows;
      }
      ++next[channel];
    }
    rows += static_cast<int64_t>(b.num_rows());
  }
  return rows;
}

TEST(RemoteOutputChannelTest, TwoWorkersReceiveEveryRowInOrderPerChannel) {
  TestWorker a, b;
  TestWorker* workers[2] = {&a, &b};
  constexpr int kProducers = 2;
  constexpr int64_t kRows = 100000;
  constexpr size_t kBatch = 1024;
  std::shared_ptr<InputGate> gates[2];
  std::unique_ptr<ExchangeRegistry::Registration> regs[2];
  for (int s = 0; s < 2; ++s) {
    gates[s] = std::make_shared<InputGate>("g" + std::to_string(s), kProducers, 4, TestTypes());
    auto reg = workers[s]->registry.Register(GateKey{"j", 1, s}, gates[s]);
    ASSERT_TRUE(reg.ok());
    regs[s] = std::move(*reg);
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      std::vector<std::unique_ptr<RemoteOutputChannel>> channels;
      for (int s = 0; s < 2; ++s) {
        channels.push_back(std::make_unique<RemoteOutputChannel>(
            Target(workers[s]->address, s, p, kProducers), nullptr));
      }
      for (int64_t i = 0; i < kRows; i += kBatch) {
        size_t n = std::min<int64_t>(kBatch, kRows - i);
        for (auto& ch : channels) ASSERT_TRUE(ch->Send(SeqBatch(p, i, n)).ok());
      }
      for (auto& ch : channels) {
        absl::Status s = ch->SendEndOfInput();
        ASSERT_TRUE(s.ok()) << s;
        ch->Close();
      }
    });
  }
  int64_t received[2] = {0, 0};
  std::thread consumer1([&] { received[1] = DrainInOrder(*gates[1], kProducers); });
  received[0] = DrainInOrder(*gates[0], kProducers);
  consumer1.join();
  for (auto& t : producers) t.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(received[0], kProducers * kRows);
  EXPECT_EQ(received[1], kProducers * kRows);
  std::printf(
      "remote exchange: %lld rows (2 columns, 1024-row batches, 4 streams) in %.3f s = %.0f "
      "rows/s\n",
      static_cast<long long>(received[0] + received[1]), secs, (received[0] + received[1]) / secs);
}

TEST(RemoteOutputChannelTest, BarriersAndWatermarksKeepTheirPlaceOnTheWire) {
  TestWorker w;
  auto gate = std::make_shared<InputGate>("g", 1, 2, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::thread producer([&] {
    RemoteOutputChannel ch(Target(w.address, 0, 0, 1), nullptr);
    ASSERT_TRUE(ch.SendBarrier(1).ok());  // before any batch
    for (int64_t i = 0; i < 5; ++i) {
      ASSERT_TRUE(ch.Send(SeqBatch(0, i, 1)).ok());  // waits for credit: the consumer polls
      ASSERT_TRUE(ch.SendWatermark({i, false}).ok());
      ASSERT_TRUE(ch.SendBarrier(i + 2).ok());
    }
    ASSERT_TRUE(ch.SendEndOfInput().ok());
  });
  auto events = testing::DrainEvents(*gate);
  producer.join();
  std::vector<std::string> want = {"|1"};
  for (int i = 0; i < 5; ++i) {
    want.push_back("b" + std::to_string(i));
    want.push_back("w" + std::to_string(i));
    want.push_back("|" + std::to_string(i + 2));
  }
  want.push_back("end");
  EXPECT_EQ(events[0], want);
}

// A producer that ends because the job stops after a savepoint says so on the wire, and a plain end
// stays plain.
TEST(RemoteOutputChannelTest, AnEndAtTheStopArrivesMarked) {
  TestWorker w;
  auto gate = std::make_shared<InputGate>("g", 2, 2, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::thread producer([&] {
    RemoteOutputChannel stopped(Target(w.address, 0, 0, 2), nullptr);
    ASSERT_TRUE(stopped.Send(SeqBatch(0, 7, 1)).ok());
    ASSERT_TRUE(stopped.SendEndOfInput(/*stopped=*/true).ok());
    RemoteOutputChannel ended(Target(w.address, 0, 1, 2), nullptr);
    ASSERT_TRUE(ended.SendEndOfInput().ok());
  });
  auto events = testing::DrainEvents(*gate);
  producer.join();
  EXPECT_EQ(events[0], (std::vector<std::string>{"b7", "end at stop"}));
  EXPECT_EQ(events[1], (std::vector<std::string>{"end"}));
}

TEST(RemoteOutputChannelTest, ACreditlessProducerBlocksAndDrainsWithoutLoss) {
  TestWorker w;
  constexpr int kCredits = 2;
  auto gate = std::make_shared<InputGate>("g", 1, kCredits, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::atomic<int> sent{0};
  RemoteOutputChannel ch(Target(w.address, 0, 0, 1), nullptr);
  std::thread producer([&] {
    for (int64_t i = 0; i < 50; ++i) {
      ASSERT_TRUE(ch.Send(SeqBatch(0, i * 1000, 1000)).ok());
      ++sent;
    }
    ASSERT_TRUE(ch.SendEndOfInput().ok());
  });
  // The consumer never polled: exactly its window goes out, that is all it buffers, and then the
  // producer stays blocked.
  auto window_full = [&] {
    return sent.load() == kCredits && gate->buffered() == static_cast<size_t>(kCredits) &&
           ch.credits() == 0;
  };
  ASSERT_TRUE(testing::Eventually(window_full));
  EXPECT_TRUE(testing::HoldsFor(window_full, std::chrono::milliseconds(200)));
  EXPECT_EQ(DrainInOrder(*gate, 1), 50000);
  producer.join();
  EXPECT_EQ(sent.load(), 50);
}

TEST(RemoteOutputChannelTest, CancellingUnblocksASendWaitingForCredit) {
  TestWorker w;
  auto gate = std::make_shared<InputGate>("g", 1, 1, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  std::atomic<bool> cancelled{false};
  RemoteOutputChannel ch(Target(w.address, 0, 0, 1), &cancelled);
  ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 10)).ok());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancelled = true;
  });
  auto start = std::chrono::steady_clock::now();
  absl::Status s = ch.Send(SeqBatch(0, 10, 10));
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ch.Close();
  // The consumer learns that its producer went away.
  ChangelogBatch b;
  absl::StatusOr<SourceState> st;
  for (int i = 0; i < 200; ++i) {
    st = gate->Poll(&b);
    if (!st.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.status().message().find("disconnected before end-of-input"), std::string::npos)
      << st.status();
}

TEST(RemoteOutputChannelTest, AFailedProducerFailsItsConsumerWithTheCause) {
  TestWorker w;
  auto gate = std::make_shared<InputGate>("g", 1, 1, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  RemoteOutputChannel ch(Target(w.address, 0, 0, 1), nullptr);
  ASSERT_TRUE(ch.Send(SeqBatch(0, 0, 10)).ok());
  ch.Abort(absl::UnavailableError("worker-7 at 10.0.0.7:1 was lost"));
  ChangelogBatch b;
  absl::StatusOr<SourceState> st;
  for (int i = 0; i < 200; ++i) {
    st = gate->Poll(&b);
    if (!st.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.status().message().find("the producer failed: worker-7 at 10.0.0.7:1 was lost"),
            std::string::npos)
      << st.status();
  EXPECT_EQ(st.status().message().find("disconnected"), std::string::npos) << st.status();
}

TEST(RemoteOutputChannelTest, MalformedFramesAreRejectedNamingTheChannel) {
  TestWorker w;
  auto gate = std::make_shared<InputGate>("g", 2, 2, TestTypes());
  auto reg = w.registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  auto stub = v1::ExchangeService::NewStub(
      grpc::CreateChannel(w.address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  auto stream = stub->Transfer(&ctx);
  v1::ExchangeFrame frame;
  auto* h = frame.mutable_header();
  h->set_job_id("j");
  h->set_task_index(1);
  h->set_subtask_index(0);
  h->set_channel_index(1);
  h->set_num_channels(2);
  h->set_producer("job j task 0 subtask 1");
  ASSERT_TRUE(stream->Write(frame));
  EncodeBatch(SeqBatch(1, 0, 5), frame.mutable_batch());
  frame.mutable_batch()->set_num_rows(7);  // 5 row kinds for 7 rows
  stream->Write(frame);
  stream->WritesDone();
  v1::ExchangeCredit credit;
  while (stream->Read(&credit)) {
  }
  grpc::Status s = stream->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("malformed exchange frame for job j task 1 subtask 0 channel 1"),
            std::string::npos)
      << s.error_message();
  ChangelogBatch b;
  EXPECT_EQ(gate->Poll(&b).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(RemoteOutputChannelTest, AStreamForAnUnregisteredGateFailsAfterTheTimeout) {
  TestWorker w(std::chrono::milliseconds(200));
  RemoteOutputChannel ch(Target(w.address, 0, 0, 1), nullptr);
  absl::Status s = ch.Send(SeqBatch(0, 0, 10));
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_NE(s.message().find("no exchange input gate for job j task 1 subtask 0"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find(w.address), std::string::npos) << s;
}

TEST(RemoteOutputChannelTest, CancellingTheJobReleasesAWaitingStream) {
  TestWorker w;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    w.registry.CancelJob("j");
  });
  RemoteOutputChannel ch(Target(w.address, 0, 0, 1), nullptr);
  auto start = std::chrono::steady_clock::now();
  absl::Status s = ch.SendEndOfInput();
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(RemoteOutputChannelTest, ConnectingGivesUpAfterTheTimeout) {
  RemoteChannelOptions options;
  options.connect_timeout = std::chrono::milliseconds(300);
  // Port 1 on loopback: nothing listens there.
  RemoteOutputChannel ch(Target("127.0.0.1:1", 0, 0, 1), nullptr, options);
  auto start = std::chrono::steady_clock::now();
  absl::Status s = ch.Send(SeqBatch(0, 0, 10));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("cannot connect to worker 127.0.0.1:1 within 300 ms"),
            std::string::npos)
      << s;
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
}

TEST(RemoteOutputChannelTest, RetriesUntilTheConsumersWorkerAccepts) {
  // Find a free port, then start the consumer's server on it only after the producer began.
  int port = 0;
  {
    TestWorker probe;
    port = std::stoi(probe.address.substr(probe.address.rfind(':') + 1));
  }
  const std::string address = "127.0.0.1:" + std::to_string(port);
  RemoteOutputChannel ch(Target(address, 0, 0, 1), nullptr);
  absl::Status result;
  std::thread producer([&] {
    result = ch.Send(SeqBatch(0, 0, 10));
    if (result.ok()) result = ch.SendEndOfInput();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ExchangeRegistry registry;
  ExchangeServiceImpl service(&registry);
  auto gate = std::make_shared<InputGate>("g", 1, 2, TestTypes());
  auto reg = registry.Register(GateKey{"j", 1, 0}, gate);
  ASSERT_TRUE(reg.ok());
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials());
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(DrainInOrder(*gate, 1), 10);
  producer.join();
  EXPECT_TRUE(result.ok()) << result;
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  server->Wait();
}

}  // namespace
}  // namespace eddy
