#include "worker/exchange/input_gate.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

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

absl::Status InputGate::Attach(int channel, int num_channels, std::function<void()> on_close) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  if (num_channels != 0 && num_channels != this->num_channels()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "exchange input gate of ", name_, " has ", this->num_channels(),
        " channels but the producer of channel ", channel, " expects ", num_channels));
  }
  if (absl::Status s = CheckChannel(channel); !s.ok()) return s;
  Channel& ch = channels_[channel];
  if (ch.attached || ch.ended) {
    return absl::FailedPreconditionError(absl::StrCat("exchange input gate of ", name_,
                                                      ": channel ", channel,
                                                      " already has a producer"));
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

absl::Status InputGate::Enqueue(int channel, ChangelogBatch batch) {
  channels_[channel].queue.push_back(Entry{std::move(batch), std::nullopt});
  Notify();
  return absl::OkStatus();
}

void InputGate::ApplyWatermark(int channel, const Watermark& w) {
  if (std::optional<Watermark> combined = watermarks_.Update(channel, w)) {
    watermark_out_ = combined;
    Notify();
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
  if (ch.queue.empty()) {
    ApplyWatermark(channel, watermark);
  } else {
    ch.queue.back().then = watermark;  // a later watermark replaces an earlier pending one
  }
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
  if (ch.queue.size() >= static_cast<size_t>(capacity_)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "exchange input gate of ", name_, ": channel ", channel,
        " sent a batch without credit (buffer of ", capacity_, " batches is full)"));
  }
  return Enqueue(channel, std::move(batch));
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
  while (!closed_ && ch.queue.size() >= static_cast<size_t>(capacity_)) {
    if (cancelled != nullptr && cancelled->load()) {
      return absl::CancelledError(absl::StrCat("sending to ", name_, " channel ", channel,
                                               ": task cancelled"));
    }
    space_cv_.wait_for(lock, kCancelPollInterval);
  }
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  return Enqueue(channel, std::move(batch));
}

absl::Status InputGate::EndOfInput(int channel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckOpenChannel(channel, "sent end-of-input twice"); !s.ok()) return s;
  Channel& ch = channels_[channel];
  ch.ended = true;
  ch.grants = 0;
  ++ended_channels_;
  if (ch.queue.empty()) ApplyEnd(channel);
  grants_cv_.notify_all();
  Notify();
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

absl::StatusOr<SourceState> InputGate::Poll(ChangelogBatch* out, int* channel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  if (closed_) {
    return absl::AbortedError(absl::StrCat("exchange input gate of ", name_, " is closed"));
  }
  const size_t n = channels_.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = (next_channel_ + k) % n;
    Channel& ch = channels_[i];
    if (ch.queue.empty()) continue;
    *out = std::move(ch.queue.front().batch);
    std::optional<Watermark> then = ch.queue.front().then;
    ch.queue.pop_front();
    if (then) ApplyWatermark(static_cast<int>(i), *then);
    if (ch.ended && ch.queue.empty()) ApplyEnd(static_cast<int>(i));
    if (channel != nullptr) *channel = static_cast<int>(i);
    next_channel_ = (i + 1) % n;
    // A freed slot is one more credit for a remote producer, or room for a local one.
    if (!ch.ended) ch.grants = std::min(ch.grants + 1, capacity_);
    grants_cv_.notify_all();
    space_cv_.notify_all();
    return SourceState::kData;
  }
  if (ended_channels_ == static_cast<int>(n)) return SourceState::kEnd;
  return SourceState::kIdle;
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
  for (const Channel& ch : channels_) n += ch.queue.size();
  return n;
}

bool InputGate::closed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_;
}

}  // namespace eddy
