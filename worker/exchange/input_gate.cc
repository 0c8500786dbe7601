#include "worker/exchange/input_gate.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "worker/exchange/back_pressure_clock.h"

namespace eddy {
namespace {

// How often a waiting local producer re-checks its cancellation flag.
constexpr auto kCancelPollInterval = std::chrono::milliseconds(5);

bool SameLayout(const DataType& a, const DataType& b) {
  return PhysicalWidth(a.id) == PhysicalWidth(b.id);
}

}  // namespace

InputGate::InputGate(std::string name, int num_channels, int credits_per_channel,
                     std::vector<DataType> types)
    : name_(std::move(name)),
      capacity_(std::max(1, credits_per_channel)),
      types_(std::move(types)),
      channels_(static_cast<size_t>(std::max(0, num_channels))),
      watermarks_(std::max(0, num_channels)) {}

absl::Status InputGate::CheckChannel(int channel) const {
  if (channel < 0 || channel >= num_channels()) {
    return absl::InvalidArgumentError(absl::StrCat("exchange input gate of ", name_, ": channel ",
                                                   channel, " out of range (gate has ",
                                                   num_channels(), " channels)"));
  }
  return absl::OkStatus();
}

absl::Status InputGate::CheckBatch(int channel, const ChangelogBatch& batch) const {
  bool ok = batch.num_columns() == types_.size();
  for (size_t i = 0; ok && i < types_.size(); ++i) {
    ok = SameLayout(batch.column(i).type(), types_[i]);
  }
  if (ok) return absl::OkStatus();
  std::string got;
  for (size_t i = 0; i < batch.num_columns(); ++i) {
    absl::StrAppend(&got, i > 0 ? ", " : "", batch.column(i).type().ToString());
  }
  std::string want;
  for (size_t i = 0; i < types_.size(); ++i) {
    absl::StrAppend(&want, i > 0 ? ", " : "", types_[i].ToString());
  }
  return absl::InvalidArgumentError(absl::StrCat("exchange input gate of ", name_, ", channel ",
                                                 channel, ": batch has columns (", got,
                                                 ") but the gate expects (", want, ")"));
}

absl::Status InputGate::Attach(int channel, int num_channels, int attempt,
                               std::function<void()> on_close) {
  std::lock_guard<std::mutex> lock(mu_);
  if (attempt != 0 && attempt_ != 0 && attempt != attempt_) {
    return absl::FailedPreconditionError(
        absl::StrCat("exchange input gate of ", name_, " belongs to attempt ", attempt_,
                     " but the producer of channel ", channel, " is of attempt ", attempt));
  }
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  if (num_channels != 0 && num_channels != this->num_channels()) {
    return absl::InvalidArgumentError(
        absl::StrCat("exchange input gate of ", name_, " has ", this->num_channels(),
                     " channels but the producer of channel ", channel, " expects ", num_channels));
  }
  if (absl::Status s = CheckChannel(channel); !s.ok()) return s;
  Channel& ch = channels_[channel];
  if (ch.attached || ch.ended) {
    return absl::FailedPreconditionError(absl::StrCat(
        "exchange input gate of ", name_, ": channel ", channel, " already has a producer"));
  }
  ch.attached = true;
  ch.grants = capacity_;
  ch.on_close = std::move(on_close);
  return absl::OkStatus();
}

void InputGate::Detach(int channel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (channel >= 0 && channel < num_channels()) channels_[channel].on_close = nullptr;
}

void InputGate::Enqueue(int channel, ChannelEvent event) {
  Channel& ch = channels_[channel];
  if (event.kind == ChannelEvent::Kind::kBatch) ++ch.queued_batches;
  ch.queue.push_back(std::move(event));
  Notify();
}

void InputGate::ApplyWatermark(int channel, const Watermark& w) {
  if (std::optional<Watermark> combined = watermarks_.Update(channel, w)) {
    watermark_out_ = combined;
  }
}

void InputGate::ApplyEnd(int channel) {
  if (std::optional<Watermark> combined = watermarks_.EndInput(channel)) {
    watermark_out_ = combined;
  }
}

absl::Status InputGate::CheckOpenChannel(int channel, const char* if_ended) const {
  if (absl::Status s = CheckChannel(channel); !s.ok()) return s;
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  if (channels_[channel].ended) {
    return absl::InvalidArgumentError(
        absl::StrCat("exchange input gate of ", name_, ": channel ", channel, " ", if_ended));
  }
  return absl::OkStatus();
}

absl::Status InputGate::PushWatermark(int channel, const Watermark& watermark) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckOpenChannel(channel, "sent a watermark after end-of-input"); !s.ok()) {
    return s;
  }
  Channel& ch = channels_[channel];
  if (!ch.queue.empty() && ch.queue.back().kind == ChannelEvent::Kind::kWatermark) {
    ch.queue.back().watermark = watermark;  // nothing between them: the later one says it all
    return absl::OkStatus();
  }
  Enqueue(channel, ChannelEvent::OfWatermark(watermark));
  return absl::OkStatus();
}

absl::Status InputGate::PushBarrier(int channel, int64_t checkpoint_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckOpenChannel(channel, "sent a barrier after end-of-input"); !s.ok()) {
    return s;
  }
  Channel& ch = channels_[channel];
  if (checkpoint_id <= ch.last_barrier) {
    return absl::InvalidArgumentError(absl::StrCat(
        "exchange input gate of ", name_, ": channel ", channel, " sent barrier ", checkpoint_id,
        " after barrier ", ch.last_barrier, " (checkpoint ids must grow)"));
  }
  ch.last_barrier = checkpoint_id;
  Enqueue(channel, ChannelEvent::Barrier(checkpoint_id));
  return absl::OkStatus();
}

std::optional<Watermark> InputGate::TakeWatermark() {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<Watermark> out = watermark_out_;
  watermark_out_.reset();
  return out;
}

absl::Status InputGate::Push(int channel, ChangelogBatch batch) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckChannel(channel); !s.ok()) return s;
  if (absl::Status s = CheckBatch(channel, batch); !s.ok()) return s;
  if (absl::Status s = CheckOpenChannel(channel, "sent a batch after end-of-input"); !s.ok()) {
    return s;
  }
  Channel& ch = channels_[channel];
  if (ch.queued_batches >= capacity_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("exchange input gate of ", name_, ": channel ", channel,
                     " sent a batch without credit (buffer of ", capacity_, " batches is full)"));
  }
  Enqueue(channel, ChannelEvent::Batch(std::move(batch)));
  return absl::OkStatus();
}

absl::Status InputGate::PushWait(int channel, ChangelogBatch batch,
                                 const std::atomic<bool>* cancelled) {
  std::unique_lock<std::mutex> lock(mu_);
  if (absl::Status s = CheckChannel(channel); !s.ok()) return s;
  if (absl::Status s = CheckBatch(channel, batch); !s.ok()) return s;
  Channel& ch = channels_[channel];
  if (ch.ended) {
    return absl::InvalidArgumentError(absl::StrCat("exchange input gate of ", name_, ": channel ",
                                                   channel, " sent a batch after end-of-input"));
  }
  while (!closed_ && ch.queued_batches >= capacity_) {
    if (cancelled != nullptr && cancelled->load()) {
      return absl::CancelledError(
          absl::StrCat("sending to ", name_, " channel ", channel, ": task cancelled"));
    }
    const auto waiting_since = std::chrono::steady_clock::now();
    space_cv_.wait_for(lock, kCancelPollInterval);
    CountBackPressure(waiting_since);
  }
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  Enqueue(channel, ChannelEvent::Batch(std::move(batch)));
  return absl::OkStatus();
}

absl::Status InputGate::EndOfInput(int channel, bool stopped) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckOpenChannel(channel, "sent end-of-input twice"); !s.ok()) return s;
  Channel& ch = channels_[channel];
  ch.ended = true;
  ch.grants = 0;
  Enqueue(channel, ChannelEvent::EndOfInput(stopped));
  grants_cv_.notify_all();
  return absl::OkStatus();
}

void InputGate::Fail(int channel, const absl::Status& status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_ || !failure_.ok()) return;
  failure_ = status;
  Notify();
}

int InputGate::TakeGrants(int channel, std::chrono::milliseconds max_wait,
                          const std::atomic<bool>* stop) {
  std::unique_lock<std::mutex> lock(mu_);
  if (channel < 0 || channel >= num_channels()) return -1;
  Channel& ch = channels_[channel];
  grants_cv_.wait_for(lock, max_wait, [&] {
    return ch.grants > 0 || ch.ended || closed_ || (stop != nullptr && stop->load());
  });
  if (ch.ended || closed_) return -1;
  int n = ch.grants;
  ch.grants = 0;
  return n;
}

void InputGate::WakeGrants() {
  std::lock_guard<std::mutex> lock(mu_);
  grants_cv_.notify_all();
}

absl::StatusOr<SourceState> InputGate::PollEvent(ChannelEvent* out, int* channel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  const size_t n = channels_.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (next_channel_ + k) % n;
    Channel& ch = channels_[i];
    if (ch.queue.empty() || ch.blocked) continue;
    *out = std::move(ch.queue.front());
    ch.queue.pop_front();
    if (channel != nullptr) *channel = static_cast<int>(i);
    next_channel_ = (i + 1) % n;
    switch (out->kind) {
      case ChannelEvent::Kind::kBatch:
        --ch.queued_batches;
        // A freed slot is one more credit for a remote producer, or room for a local one.
        if (!ch.ended) ch.grants = std::min(ch.grants + 1, capacity_);
        grants_cv_.notify_all();
        space_cv_.notify_all();
        break;
      case ChannelEvent::Kind::kWatermark:
        ApplyWatermark(static_cast<int>(i), out->watermark);
        break;
      case ChannelEvent::Kind::kBarrier:
        break;
      case ChannelEvent::Kind::kEndOfInput:
        ch.drained = true;
        ++drained_channels_;
        ApplyEnd(static_cast<int>(i));
        break;
    }
    return SourceState::kData;
  }
  if (drained_channels_ == static_cast<int>(n)) return SourceState::kEnd;
  return SourceState::kIdle;
}

bool InputGate::WatermarkPending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return watermark_out_.has_value();
}

absl::StatusOr<SourceState> InputGate::Poll(ChangelogBatch* out, int* channel) {
  ChannelEvent event;
  int from = -1;
  while (true) {
    ASSIGN_OR_RETURN(SourceState st, PollEvent(&event, &from));
    if (st != SourceState::kData) return st;
    if (channel != nullptr) *channel = from;
    switch (event.kind) {
      case ChannelEvent::Kind::kBatch:
        *out = std::move(event.batch);
        return SourceState::kData;
      case ChannelEvent::Kind::kWatermark:
      case ChannelEvent::Kind::kEndOfInput:
        if (!WatermarkPending()) continue;
        // The caller takes the watermark now, before any later batch.
        *out = ChangelogBatch();
        return SourceState::kData;
      case ChannelEvent::Kind::kBarrier:
        return absl::UnimplementedError(absl::StrCat(
            "exchange input gate of ", name_, ": channel ", from, " sent checkpoint barrier ",
            event.checkpoint_id, ", but this consumer does not align barriers"));
    }
  }
}

void InputGate::SetBlocked(int channel, bool blocked) {
  std::lock_guard<std::mutex> lock(mu_);
  if (channel < 0 || channel >= num_channels()) return;
  channels_[channel].blocked = blocked;
}

void InputGate::SetNotify(std::function<void()> notify) {
  std::lock_guard<std::mutex> lock(mu_);
  notify_ = std::move(notify);
}

void InputGate::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return;
  closed_ = true;
  for (Channel& ch : channels_) {
    ch.queue.clear();
    ch.queued_batches = 0;
    // An ended channel's stream is finishing cleanly; aborting it would fail its producer.
    if (ch.on_close && !ch.ended) ch.on_close();
    ch.on_close = nullptr;
  }
  notify_ = nullptr;
  space_cv_.notify_all();
  grants_cv_.notify_all();
}

size_t InputGate::buffered() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const Channel& ch : channels_) n += static_cast<size_t>(ch.queued_batches);
  return n;
}

int InputGate::queued_batches(int channel) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (channel < 0 || channel >= static_cast<int>(channels_.size())) return 0;
  return channels_[static_cast<size_t>(channel)].queued_batches;
}

size_t InputGate::queued_events() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const Channel& ch : channels_) n += ch.queue.size();
  return n;
}

bool InputGate::closed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_;
}

}  // namespace eddy
