#include "worker/exchange/exchange_service.h"

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/base/logging.h"
#include "common/batch/batch_codec.h"
#include "common/rpc/status_convert.h"

namespace eddy {
namespace {

// Bounds how long a finishing stream waits for its credit writer.
constexpr auto kGrantWait = std::chrono::milliseconds(100);

}  // namespace

grpc::Status ExchangeServiceImpl::Transfer(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<v1::ExchangeCredit, v1::ExchangeFrame>* stream) {
  v1::ExchangeFrame frame;
  if (!stream->Read(&frame)) {
    return grpc::Status(grpc::StatusCode::CANCELLED, "exchange stream ended before its header");
  }
  if (!frame.has_header()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "exchange stream: the first frame must be a header");
  }
  const v1::ExchangeHeader header = frame.header();
  const GateKey key{header.job_id(), header.task_index(), header.subtask_index(),
                    header.input_index()};
  const int channel = header.channel_index();
  const std::string where = absl::StrCat(key.ToString(), " channel ", channel, " (from ",
                                         header.producer().empty() ? "?" : header.producer(), ")");

  auto found = registry_->Await(key, [ctx] { return ctx->IsCancelled(); });
  if (!found.ok()) return ToGrpcStatus(found.status());
  std::shared_ptr<InputGate> gate = std::move(*found);
  // If the consumer closes (task cancelled or failed), abort the stream so that Read returns.
  if (absl::Status s = gate->Attach(channel, header.num_channels(), header.attempt(),
                                    [ctx] { ctx->TryCancel(); });
      !s.ok()) {
    return ToGrpcStatus(s);
  }

  std::atomic<bool> stop{false};
  std::thread writer([&] {
    v1::ExchangeCredit credit;
    while (!stop.load()) {
      int n = gate->TakeGrants(channel, kGrantWait, &stop);
      if (n < 0) break;
      if (n == 0) continue;
      credit.set_credits(n);
      if (!stream->Write(credit)) break;
    }
  });

  absl::Status result;
  bool ended = false;
  while (result.ok() && stream->Read(&frame)) {
    switch (frame.frame_case()) {
      case v1::ExchangeFrame::kBatch: {
        if (ended) {
          result = absl::InvalidArgumentError(
              absl::StrCat("exchange frame for ", where, ": batch after end-of-input"));
          break;
        }
        auto batch = DecodeBatch(frame.batch());
        if (!batch.ok()) {
          result = absl::InvalidArgumentError(
              absl::StrCat("malformed exchange frame for ", where, ": ", batch.status().message()));
          break;
        }
        result = gate->Push(channel, std::move(*batch));
        break;
      }
      case v1::ExchangeFrame::kWatermark:
        result = gate->PushWatermark(
            channel, Watermark{frame.watermark().millis(), frame.watermark().idle()});
        break;
      case v1::ExchangeFrame::kBarrier:
        result = gate->PushBarrier(channel, frame.barrier().checkpoint_id());
        break;
      case v1::ExchangeFrame::kEndOfInput:
        result = gate->EndOfInput(channel, frame.end_of_input().stopped());
        ended = result.ok();
        break;
      case v1::ExchangeFrame::kProducerFailed:
        result = absl::AbortedError(absl::StrCat(
            "exchange ", where, ": the producer failed: ", frame.producer_failed().reason()));
        break;
      case v1::ExchangeFrame::kHeader:
      case v1::ExchangeFrame::FRAME_NOT_SET:
        result = absl::InvalidArgumentError(
            absl::StrCat("exchange frame for ", where, ": unexpected frame (header or empty)"));
        break;
    }
  }
  if (result.ok() && !ended) {
    result = gate->closed()
                 ? absl::AbortedError(absl::StrCat("exchange ", where, ": the consumer closed"))
                 : absl::UnavailableError(absl::StrCat(
                       "exchange ", where,
                       ": the producer disconnected before end-of-input (its worker stopped or "
                       "the network failed)"));
  }
  // The consumer must not wait forever for a channel whose producer is gone or misbehaved.
  if (!result.ok() && !gate->closed()) gate->Fail(channel, result);

  stop = true;
  gate->WakeGrants();
  writer.join();
  gate->Detach(channel);
  if (!result.ok() && !absl::IsCancelled(result) && !absl::IsAborted(result)) {
    EDDY_LOG_WARN("exchange stream failed: {}", result.ToString());
  }
  return ToGrpcStatus(result);
}

}  // namespace eddy
