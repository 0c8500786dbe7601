// InputGate: the receiving end of a consumer subtask's exchange inputs. Each input channel is one
// ordered queue of events (channel_event.h: batches, watermarks, barriers, end-of-input) whose
// batches are bounded by the channel's credit window (as Flink's exclusive buffers); producers
// (gRPC handler threads or local senders on other task threads) push into it and the consumer
// task's driver polls it. Events of one channel come out in the order they went in; channels take
// turns.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/types/data_type.h"
#include "worker/exchange/channel_event.h"
#include "worker/operators/source.h"
#include "worker/operators/watermark.h"

namespace eddy {

inline constexpr int kDefaultCreditsPerChannel = 4;

class InputGate {
 public:
  // `types`: the column types every batch must have (checked on push; physical layout only).
  // `name` names the gate in errors, e.g. "job j task 2 subtask 1".
  InputGate(std::string name, int num_channels, int credits_per_channel,
            std::vector<DataType> types);

  const std::string& name() const { return name_; }
  int num_channels() const { return static_cast<int>(channels_.size()); }
  int credits_per_channel() const { return capacity_; }
  const std::vector<DataType>& types() const { return types_; }

  // --- producer side ---

  // Claims `channel` for one producer. `num_channels` is what the producer's plan says the gate has
  // (0: unchecked). `on_close` (may be empty) runs under the gate's lock if the consumer closes
  // while the channel is attached, to abort a remote stream; it must not block or call back into
  // the gate. Fails if the channel is out of range, already claimed, or the gate is closed.
  absl::Status Attach(int channel, int num_channels, std::function<void()> on_close) {
    return Attach(channel, num_channels, 0, std::move(on_close));
  }
  // Also FAILED_PRECONDITION when the producer's job attempt is not the gate's (either 0:
  // unchecked): a stream of an older attempt never feeds a newer one.
  absl::Status Attach(int channel, int num_channels, int attempt, std::function<void()> on_close);
  // The consumer's job attempt (0: unchecked); set before producers attach.
  void set_attempt(int attempt) { attempt_ = attempt; }
  // Forgets `on_close` (the stream handler is returning).
  void Detach(int channel);

  // Remote producers: never waits. The producer holds a credit for every batch it sends, so a full
  // buffer means it broke the protocol: RESOURCE_EXHAUSTED, and nothing is buffered.
  absl::Status Push(int channel, ChangelogBatch batch);
  // Local producers: waits until the channel's buffer has room (the same bound as the credits of a
  // remote channel). CANCELLED once *cancelled is set (checked every few ms), ABORTED if the gate
  // closes.
  absl::Status PushWait(int channel, ChangelogBatch batch, const std::atomic<bool>* cancelled);
  // The producer of `channel` ended (`stopped`: because the job stops after a savepoint).
  absl::Status EndOfInput(int channel, bool stopped = false);
  // The producer's watermark, in order with its other events. Needs no credit: a producer sends at
  // most one per batch or flush, and one still queued right behind another is replaced by it.
  absl::Status PushWatermark(int channel, const Watermark& watermark);
  // Checkpoint barrier `checkpoint_id`, in order with the channel's other events; ids must grow
  // per channel. Needs no credit (one per checkpoint).
  absl::Status PushBarrier(int channel, int64_t checkpoint_id);
  // The producer of `channel` went away before end-of-input: the consumer's next Poll fails.
  void Fail(int channel, const absl::Status& status);

  // Remote channels: waits up to `max_wait` for credits to grant to the producer and returns their
  // number: 0 if none yet or once *stop is set, -1 once the channel ended or the gate closed (no
  // more grants, ever). The first grant is the whole window; then one per batch the consumer took
  // out of the channel.
  int TakeGrants(int channel, std::chrono::milliseconds max_wait, const std::atomic<bool>* stop);
  // Wakes TakeGrants waiters after their stop flag was set.
  void WakeGrants();

  // --- consumer side ---

  // kData: *out holds the next event of some channel (channels take turns; one channel's events
  // in order) and *channel (if non-null) says which. Taking a batch frees a credit; taking a
  // watermark or an end-of-input updates the gate's watermark (TakeWatermark). kIdle: nothing
  // queued now. kEnd: every channel's end-of-input was taken. An error if a channel failed.
  absl::StatusOr<SourceState> PollEvent(ChannelEvent* out, int* channel = nullptr);
  // PollEvent for a consumer that reads batches and watermarks: kData with the next batch, or with
  // an empty batch when the gate's watermark changed (take it with TakeWatermark before polling
  // again, so that it keeps its place between batches). Barriers need an aligning consumer: one
  // here is an UNIMPLEMENTED error.
  absl::StatusOr<SourceState> Poll(ChangelogBatch* out, int* channel = nullptr);
  // A blocked channel is not read: PollEvent skips it, so its buffer fills and, through its
  // credits, holds its producer (barrier alignment). Channels start unblocked.
  void SetBlocked(int channel, bool blocked);
  // Whether the gate's watermark changed and was not taken yet.
  bool watermark_pending() const { return WatermarkPending(); }
  // Called (under the gate's lock, so it must be cheap and must not call back) whenever a batch,
  // end-of-input or a failure arrives, to wake an idle driver.
  void SetNotify(std::function<void()> notify);
  // The gate's watermark (minimum over its live, non-idle channels) if it changed since the last
  // call; call after handling the event of the previous Poll.
  std::optional<Watermark> TakeWatermark();
  // Drops queued events, aborts attached remote streams, fails waiting local producers.
  // Idempotent.
  void Close();

  // Batches queued over all channels (tests, metrics).
  size_t buffered() const;
  // Batches queued in one channel (0 for a channel out of range): its producer may send
  // credits_per_channel() minus this many more.
  int queued_batches(int channel) const;
  // Events of every kind queued over all channels.
  size_t queued_events() const;
  bool closed() const;

 private:
  struct Channel {
    std::deque<ChannelEvent> queue;
    int queued_batches = 0;  // batches in `queue`: bounded by the credit window
    bool attached = false;
    bool ended = false;    // the producer sent end-of-input (it may still be queued)
    bool drained = false;  // the consumer took end-of-input
    int64_t last_barrier = 0;
    bool blocked = false;  // skipped by PollEvent (SetBlocked)
    int grants = 0;        // credits not yet sent to the remote producer
    std::function<void()> on_close;
  };

  absl::Status CheckChannel(int channel) const;  // mu_ held
  // CheckChannel, then ABORTED if the gate is closed, INVALID_ARGUMENT "<if_ended>" if the channel
  // has ended (mu_ held).
  absl::Status CheckOpenChannel(int channel, const char* if_ended) const;
  absl::Status CheckBatch(int channel, const ChangelogBatch& batch) const;
  void Enqueue(int channel, ChannelEvent event);         // mu_ held, room checked
  void ApplyWatermark(int channel, const Watermark& w);  // mu_ held
  void ApplyEnd(int channel);                            // mu_ held, end-of-input taken
  bool WatermarkPending() const;                         // takes mu_
  void Notify() {
    if (notify_) notify_();
  }

  const std::string name_;
  const int capacity_;
  const std::vector<DataType> types_;
  int attempt_ = 0;

  mutable std::mutex mu_;
  std::condition_variable space_cv_;   // local producers waiting for room
  std::condition_variable grants_cv_;  // remote credit writers waiting for grants
  std::vector<Channel> channels_;
  int drained_channels_ = 0;
  size_t next_channel_ = 0;  // round-robin start of the next Poll
  bool closed_ = false;
  absl::Status failure_;
  std::function<void()> notify_;
  WatermarkCombiner watermarks_;            // over channels
  std::optional<Watermark> watermark_out_;  // changed, not yet taken
};

}  // namespace eddy
