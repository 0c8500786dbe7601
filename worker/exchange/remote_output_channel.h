// RemoteOutputChannel: an exchange channel to a consumer on another worker, as one
// ExchangeService.Transfer bidi stream (batch frames out, credit grants back). It connects lazily
// on first use and keeps retrying (gRPC reconnect backoff) until the consumer's worker accepts,
// bounded by a timeout, because producers and consumers are deployed in no particular order.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "eddy/v1/exchange.grpc.pb.h"
#include "worker/exchange/output_channel.h"

namespace eddy {

struct RemoteChannelOptions {
  std::chrono::milliseconds connect_timeout{30000};  // until the consumer's worker accepts
  std::chrono::milliseconds initial_backoff{50};     // gRPC reconnect backoff, first and
  std::chrono::milliseconds max_backoff{1000};       // ... longest
};

class RemoteOutputChannel final : public OutputChannel {
 public:
  // `cancelled` may be null.
  RemoteOutputChannel(ChannelTarget target, const std::atomic<bool>* cancelled,
                      RemoteChannelOptions options = {});
  ~RemoteOutputChannel() override { Close(); }

  absl::Status Send(ChangelogBatch batch) override;
  absl::Status SendEndOfInput(bool stopped = false) override;
  absl::Status SendWatermark(const Watermark& watermark) override;
  absl::Status SendBarrier(int64_t checkpoint_id) override;
  void Close() override;
  void Abort(const absl::Status& cause) override;
  int FreeCredits() override { return credits(); }

  // Credits granted and not used yet (tests).
  int credits();

 private:
  absl::Status Connect();
  void ReadCredits();  // reader thread
  bool Cancelled() const { return cancelled_ != nullptr && cancelled_->load(); }
  // Ends the call (cancelling it first if `cancel`), joins the reader and returns the call's final
  // status, prefixed with the channel's name.
  absl::Status FinishCall(bool cancel);
  absl::Status Annotate(const absl::Status& s) const;

  const ChannelTarget target_;
  const std::atomic<bool>* cancelled_;
  const RemoteChannelOptions options_;

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::ExchangeService::Stub> stub_;
  std::unique_ptr<grpc::ClientContext> ctx_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::ExchangeFrame, v1::ExchangeCredit>> stream_;
  std::thread reader_;
  v1::ExchangeFrame frame_;  // reused, so that encoding reuses its buffers
  bool ended_ = false;
  bool finished_ = false;
  absl::Status final_status_;

  std::mutex mu_;
  std::condition_variable cv_;
  int credits_ = 0;
  bool reader_done_ = false;
};

}  // namespace eddy
