#include "worker/exchange/remote_output_channel.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/rpc/message_limits.h"
#include "common/rpc/status_convert.h"
#include "worker/exchange/back_pressure_clock.h"

namespace eddy {
namespace {

// How often a waiting sender re-checks its cancellation flag.
constexpr auto kCancelPollInterval = std::chrono::milliseconds(5);
constexpr auto kConnectPollInterval = std::chrono::milliseconds(50);
// How long a failing producer waits for its consumer to take the reason before it cancels the call.
constexpr auto kAbortDeliveryWait = std::chrono::milliseconds(500);

}  // namespace

RemoteOutputChannel::RemoteOutputChannel(ChannelTarget target, const std::atomic<bool>* cancelled,
                                         RemoteChannelOptions options)
    : target_(std::move(target)), cancelled_(cancelled), options_(options) {}

absl::Status RemoteOutputChannel::Annotate(const absl::Status& s) const {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("exchange ", target_.ToString(), ": ", s.message()));
}

absl::Status RemoteOutputChannel::Connect() {
  if (stream_) return absl::OkStatus();
  if (finished_)
    return final_status_.ok() ? absl::FailedPreconditionError("channel closed") : final_status_;
  grpc::ChannelArguments args = LimitedChannelArguments();
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS,
              static_cast<int>(options_.initial_backoff.count()));
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS,
              static_cast<int>(options_.initial_backoff.count()));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, static_cast<int>(options_.max_backoff.count()));
  channel_ = grpc::CreateCustomChannel(target_.address, grpc::InsecureChannelCredentials(), args);
  const auto deadline = std::chrono::system_clock::now() + options_.connect_timeout;
  while (true) {
    if (Cancelled()) return Annotate(absl::CancelledError("task cancelled while connecting"));
    auto now = std::chrono::system_clock::now();
    if (now >= deadline) {
      return Annotate(absl::UnavailableError(
          absl::StrCat("cannot connect to worker ", target_.address, " within ",
                       options_.connect_timeout.count(), " ms")));
    }
    if (channel_->WaitForConnected(std::min(deadline, now + kConnectPollInterval))) break;
  }
  stub_ = v1::ExchangeService::NewStub(channel_);
  ctx_ = std::make_unique<grpc::ClientContext>();
  stream_ = stub_->Transfer(ctx_.get());
  auto* header = frame_.mutable_header();
  header->set_job_id(target_.consumer.job_id);
  header->set_task_index(target_.consumer.task_index);
  header->set_subtask_index(target_.consumer.subtask_index);
  header->set_input_index(target_.consumer.input_index);
  header->set_channel_index(target_.channel_index);
  header->set_num_channels(target_.num_channels);
  header->set_producer(target_.producer);
  header->set_attempt(target_.attempt);
  reader_ = std::thread([this] { ReadCredits(); });
  if (!stream_->Write(frame_)) return FinishCall(/*cancel=*/false);
  return absl::OkStatus();
}

void RemoteOutputChannel::ReadCredits() {
  v1::ExchangeCredit credit;
  while (stream_->Read(&credit)) {
    std::lock_guard<std::mutex> lock(mu_);
    credits_ += credit.credits();
    cv_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mu_);
  reader_done_ = true;
  cv_.notify_all();
}

absl::Status RemoteOutputChannel::FinishCall(bool cancel) {
  if (finished_) return final_status_;
  if (cancel) ctx_->TryCancel();
  if (reader_.joinable()) reader_.join();
  grpc::Status s = stream_->Finish();
  finished_ = true;
  final_status_ = Annotate(FromGrpcStatus(s));
  if (final_status_.ok() && !ended_) {
    // The consumer ended the stream although we had more to send.
    final_status_ = Annotate(absl::AbortedError("the consumer closed the stream"));
  }
  return final_status_;
}

absl::Status RemoteOutputChannel::Send(ChangelogBatch batch) {
  if (ended_) return absl::FailedPreconditionError("exchange channel: Send after end-of-input");
  RETURN_IF_ERROR(Connect());
  if (finished_) return final_status_;
  {
    std::unique_lock<std::mutex> lock(mu_);
    while (credits_ == 0) {
      if (reader_done_) {
        lock.unlock();
        return FinishCall(/*cancel=*/false);
      }
      if (Cancelled()) {
        lock.unlock();
        FinishCall(/*cancel=*/true).IgnoreError();
        return Annotate(absl::CancelledError("task cancelled while waiting for credit"));
      }
      const auto waiting_since = std::chrono::steady_clock::now();
      cv_.wait_for(lock, kCancelPollInterval);
      CountBackPressure(waiting_since);
    }
    --credits_;
  }
  auto* msg = frame_.mutable_batch();
  msg->Clear();
  EncodeBatch(batch, msg);
  if (!stream_->Write(frame_)) return FinishCall(/*cancel=*/false);
  return absl::OkStatus();
}

absl::Status RemoteOutputChannel::SendWatermark(const Watermark& watermark) {
  if (ended_) return absl::OkStatus();
  RETURN_IF_ERROR(Connect());
  if (finished_) return final_status_;
  auto* msg = frame_.mutable_watermark();
  msg->set_millis(watermark.millis);
  msg->set_idle(watermark.idle);
  if (!stream_->Write(frame_)) return FinishCall(/*cancel=*/false);
  return absl::OkStatus();
}

absl::Status RemoteOutputChannel::SendBarrier(int64_t checkpoint_id) {
  if (ended_) return absl::FailedPreconditionError("exchange channel: barrier after end-of-input");
  RETURN_IF_ERROR(Connect());
  if (finished_) return final_status_;
  frame_.mutable_barrier()->set_checkpoint_id(checkpoint_id);
  if (!stream_->Write(frame_)) return FinishCall(/*cancel=*/false);
  return absl::OkStatus();
}

absl::Status RemoteOutputChannel::SendEndOfInput(bool stopped) {
  if (ended_) return final_status_;
  RETURN_IF_ERROR(Connect());
  if (finished_) return final_status_;
  ended_ = true;
  frame_.mutable_end_of_input()->set_stopped(stopped);
  if (!stream_->Write(frame_) || !stream_->WritesDone()) return FinishCall(/*cancel=*/false);
  // The consumer ends the call once it has taken end-of-input into its gate; wait for that, so that
  // a finished producer task has handed over all its data.
  {
    std::unique_lock<std::mutex> lock(mu_);
    while (!reader_done_) {
      if (Cancelled()) {
        lock.unlock();
        FinishCall(/*cancel=*/true).IgnoreError();
        return Annotate(absl::CancelledError("task cancelled while ending the stream"));
      }
      cv_.wait_for(lock, kCancelPollInterval);
    }
  }
  return FinishCall(/*cancel=*/false);
}

void RemoteOutputChannel::Close() {
  if (stream_ && !finished_) FinishCall(/*cancel=*/true).IgnoreError();
  finished_ = true;
}

void RemoteOutputChannel::Abort(const absl::Status& cause) {
  if (stream_ && !finished_ && !ended_) {
    // Tell the consumer why, then give it a moment to take it before the call is cancelled.
    frame_.mutable_producer_failed()->set_reason(std::string(cause.message()));
    if (stream_->Write(frame_) && stream_->WritesDone()) {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, kAbortDeliveryWait, [this] { return reader_done_; });
    }
  }
  Close();
}

int RemoteOutputChannel::credits() {
  std::lock_guard<std::mutex> lock(mu_);
  return credits_;
}

}  // namespace eddy
